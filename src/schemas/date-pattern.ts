/**
 * `YYYY-MM-DD`, a real calendar date (leap years included): zod's own ISO date pattern. One object
 * serves the generated parser and the webhook event checks; the zod schemas hold a copy (see
 * `isoDatePattern` in common.ts for why).
 */
export const datePattern =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))$/;

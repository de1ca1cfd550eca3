import * as z from 'zod/mini';

/**
 * A journal's quartile label.
 *
 * The API document shows only `Q1` and leaves the other values unstated, so any string is accepted;
 * the four usual labels are listed for editor completion (`string & {}` keeps them from collapsing
 * into plain `string`).
 *
 * @example
 * ```ts
 * import type { Quartile } from 'scholarly-metrics/webhooks';
 * const top: Quartile = 'Q1';
 * const other: Quartile = 'Q5 (provisional)'; // also fine: the set of labels is not documented
 * ```
 */
export type Quartile = 'Q1' | 'Q2' | 'Q3' | 'Q4' | (string & {});

/**
 * The zod/mini schema of a {@link Quartile}: any string (see there for why it is not an enum).
 *
 * Shared by the webhook event schema and the client's response schemas.
 *
 * @example
 * ```ts
 * import * as z from 'zod/mini';
 * import { quartileSchema } from 'scholarly-metrics/webhooks';
 * z.parse(quartileSchema, 'Q2'); // 'Q2'
 * ```
 */
export const quartileSchema: z.ZodMiniType<Quartile, unknown> = z.string();

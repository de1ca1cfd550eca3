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

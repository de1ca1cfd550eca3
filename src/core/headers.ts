/**
 * A `Headers` object, or anything shaped like one, described by what the client reads of it: the
 * declarations then name no DOM type (`HeadersInit` exists only in the DOM library). Not exported:
 * users write {@link HeadersInput}, which a `Headers` object fits.
 */
export interface HeadersLike {
  get(name: string): string | null;
  has(name: string): boolean;
  forEach(callback: (value: string, name: string) => void): void;
}

/**
 * Extra headers, as the client and request options take them: a plain object, a list of
 * `[name, value]` pairs, or a `Headers` object.
 *
 * @example
 * ```ts
 * import type { HeadersInput } from 'scholarly-metrics';
 *
 * const headers: HeadersInput = { 'x-team': 'bibliometrics' };
 * const client = new MetricClient({ apiKey, baseUrl, headers });
 * ```
 */
export type HeadersInput =
  | Readonly<Record<string, string>>
  | ReadonlyArray<readonly [string, string]>
  | HeadersLike;

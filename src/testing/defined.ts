/**
 * `value` without its `undefined` entries, so that spreading it over defaults keeps a default where an
 * option was given as `undefined` (as `exactOptionalPropertyTypes` users may write it).
 */
export function defined<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

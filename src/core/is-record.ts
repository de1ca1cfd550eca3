/** A plain object as options, parameters and bodies must be: not `null`, not an array, not a primitive. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An object literal's kind of object: its prototype is Object.prototype (of any realm: that one's own
 * prototype is null) or none. A Map, a URLSearchParams or a class's instance is not.
 */
export const isPlainRecord = (value: unknown): value is Record<string, unknown> => {
  const prototype = isRecord(value) ? Object.getPrototypeOf(value) : 0;
  return prototype === null || Object.getPrototypeOf(Object(prototype)) === null;
};

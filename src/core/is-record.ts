/** A plain object as options, parameters and bodies must be: not `null`, not an array, not a primitive. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * How deep a response body may nest. The API's bodies nest a few levels; a body nested thousands
 * deep is an attack on whatever walks it recursively afterwards (the caller's `JSON.stringify`,
 * `structuredClone`, a logger), and is refused as a bad body instead.
 */
export const maxBodyDepth = 64;

/**
 * Whether `root` nests deeper than `max` arrays and objects, found without recursion. Only arrays
 * and objects are pushed, so a page of flat items costs one push per item.
 */
export function nestsDeeperThan(root: unknown, max: number): boolean {
  const values: object[] = [];
  const depths: number[] = [];
  if (typeof root === 'object' && root !== null) {
    values.push(root);
    depths.push(1);
  }
  for (let value = values.pop(); value !== undefined; value = values.pop()) {
    const depth = depths.pop() as number;
    if (depth > max) return true;
    if (Array.isArray(value)) {
      for (const item of value) {
        if (typeof item === 'object' && item !== null) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in value) {
        const item = (value as Record<string, unknown>)[key];
        if (typeof item === 'object' && item !== null) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

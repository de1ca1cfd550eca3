/**
 * How deep a body may nest, the body itself being level 1: a response's, and a webhook event's. The
 * API's bodies nest a few levels; a body nested thousands deep is an attack on whatever walks it
 * recursively afterwards (the caller's `JSON.stringify`, `structuredClone`, a logger, a deep
 * equality), and is refused as a bad body instead.
 */
export const maxBodyDepth = 64;

/**
 * Walks every object and array below `root` without recursion, each one once (shared or cyclic
 * references in an already-parsed value cost no more than a tree), and returns the path to the first
 * one nested deeper than `max` levels; `undefined` when none is. `onKey` sees each key of each object
 * (not of arrays) with the path to that object; what it throws ends the walk.
 */
export function pathTooDeep(
  root: unknown,
  max: number = maxBodyDepth,
  onKey?: (key: string, parent: PropertyKey[]) => void,
): PropertyKey[] | undefined {
  const seen = new WeakSet<object>();
  const stack: Array<[object, PropertyKey[]]> = [];
  if (typeof root === 'object' && root !== null) stack.push([root, []]);
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [value, path] = next;
    if (seen.has(value)) continue;
    seen.add(value);
    if (path.length >= max) return path;
    const array = Array.isArray(value);
    for (const key of Object.keys(value)) {
      if (!array) onKey?.(key, path);
      const child = (value as Record<string, unknown>)[key];
      // Only objects and arrays are pushed, so a page of flat items costs one push per item.
      if (typeof child === 'object' && child !== null)
        stack.push([child, [...path, array ? Number(key) : key]]);
    }
  }
  return undefined;
}

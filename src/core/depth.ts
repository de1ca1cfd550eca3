/**
 * How deep a body may nest, the body itself being level 1: a response's, and a webhook event's. The
 * API's bodies nest a few levels; a body nested thousands deep is an attack on whatever walks it
 * recursively afterwards (the caller's `JSON.stringify`, `structuredClone`, a logger, a deep
 * equality), and is refused as a bad body instead.
 */
export const maxBodyDepth = 64;

/**
 * Walks every object and array below `root` and returns the path to the first one nested deeper than
 * `max` levels; `undefined` when none is. Each container is walked once (shared or cyclic references
 * in an already-parsed value cost no more than a tree; an object holding no object is only looked at
 * again). It recurses at most `max` levels and keeps one path, so its memory grows with the depth,
 * never with the items. `onKey` sees each key of each object (not of arrays) with the path to that
 * object, before any of its values is walked (read the path at once: it changes as the walk goes on);
 * what it throws ends the walk.
 */
export function pathTooDeep(
  root: unknown,
  max: number = maxBodyDepth,
  onKey?: (key: string, parent: PropertyKey[]) => void,
): PropertyKey[] | undefined {
  let seen: WeakSet<object> | undefined;
  const path: PropertyKey[] = [];
  const tooDeep = (value: unknown): boolean => {
    if (typeof value !== 'object' || value === null || seen?.has(value)) return false;
    if (path.length >= max) return true;
    const keys = Array.isArray(value) ? undefined : Object.keys(value);
    if (onKey && keys) for (const key of keys) onKey(key, path);
    const count = keys ? keys.length : (value as unknown[]).length;
    for (let index = 0; index < count; index++) {
      const key = keys ? keys[index]! : index;
      const child = (value as Record<PropertyKey, unknown>)[key];
      if (typeof child !== 'object' || child === null) continue;
      seen ??= new WeakSet();
      seen.add(value);
      path.push(key);
      if (tooDeep(child)) return true;
      path.pop();
    }
    return false;
  };
  return tooDeep(root) ? path : undefined;
}

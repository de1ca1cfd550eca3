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
 * again). It recurses at most `max` levels and keeps one path: it holds the keys of the containers on
 * that path, never one path per item. `onKey` sees each key of each object (not of arrays) with the
 * path to that object, before any of its values is walked (read the path at once: it changes as the
 * walk goes on); what it throws ends the walk.
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
    const array = Array.isArray(value);
    const keys = Object.keys(value);
    if (onKey && !array) for (const key of keys) onKey(key, path);
    for (const key of keys) {
      const child = (value as Record<string, unknown>)[key];
      if (typeof child !== 'object' || child === null) continue;
      seen ??= new WeakSet();
      seen.add(value);
      path.push(array ? Number(key) : key);
      if (tooDeep(child)) return true;
      path.pop();
    }
    return false;
  };
  return tooDeep(root) ? path : undefined;
}

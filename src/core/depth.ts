/**
 * How deep a body may nest, the body itself being level 1: a response's, and a webhook event's. The
 * API's bodies nest a few levels; a body nested thousands deep is an attack on whatever walks it
 * recursively afterwards (the caller's `JSON.stringify`, `structuredClone`, a logger, a deep
 * equality), and is refused as a bad body instead.
 */
export const maxBodyDepth = 64;

/** An object or array met by the walk: its level, and where it sits in its parent. */
interface Place {
  readonly value: object;
  readonly depth: number;
  readonly parent: Place | undefined;
  readonly key: PropertyKey;
}

/** The keys that lead from the root to `place`. */
function pathOf(place: Place): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at: Place | undefined = place; at?.parent !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * Walks every object and array below `root` without recursion, each one once (shared or cyclic
 * references in an already-parsed value cost no more than a tree), and returns the path to the first
 * one nested deeper than `max` levels; `undefined` when none is. `onKey` sees each key of each object
 * (not of arrays) with the path to it, built when asked for; what it throws ends the walk.
 */
export function pathTooDeep(
  root: unknown,
  max: number = maxBodyDepth,
  onKey?: (key: string, path: () => PropertyKey[]) => void,
): PropertyKey[] | undefined {
  if (typeof root !== 'object' || root === null) return undefined;
  const seen = new WeakSet<object>();
  const places: Place[] = [{ value: root, depth: 1, parent: undefined, key: '' }];
  for (let place = places.pop(); place !== undefined; place = places.pop()) {
    const { value, depth } = place;
    if (seen.has(value)) continue;
    seen.add(value);
    if (depth > max) return pathOf(place);
    const array = Array.isArray(value);
    for (const key of Object.keys(value)) {
      const step = array ? Number(key) : key;
      if (!array) onKey?.(key, () => [...pathOf(place), step]);
      const child = (value as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) {
        places.push({ value: child, depth: depth + 1, parent: place, key: step });
      }
    }
  }
  return undefined;
}

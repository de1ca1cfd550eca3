import { describe, expect, it } from 'vitest';
import { maxBodyDepth, pathTooDeep } from '../../src/core/depth.js';

/** `levels` arrays nested in one another, the outermost being level 1. */
const nested = (levels: number): unknown => {
  let value: unknown = [];
  for (let level = 1; level < levels; level++) value = [value];
  return value;
};

describe('pathTooDeep, the one depth guard of responses and webhook events', () => {
  it(`accepts ${maxBodyDepth} levels and names the path to the first level past them`, () => {
    expect(pathTooDeep(nested(maxBodyDepth))).toBeUndefined();
    const path = pathTooDeep({ a: { b: nested(maxBodyDepth) } });
    expect(path).toEqual(['a', 'b', ...new Array(maxBodyDepth - 2).fill(0)]);
    expect(pathTooDeep(JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`))).toHaveLength(
      maxBodyDepth,
    );
  });

  it('walks a cycle or a shared value once, and leaves values that are not objects alone', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic, again: cyclic };
    expect(pathTooDeep(cyclic, 3)).toBeUndefined();
    for (const value of [null, 1, 'text', undefined]) expect(pathTooDeep(value)).toBeUndefined();
  });

  it('shows each key of each object (not of arrays) to onKey, with the path to its object; what onKey throws ends the walk', () => {
    const seen: string[] = [];
    pathTooDeep({ a: [{ b: 1 }], c: 2 }, maxBodyDepth, (key, parent) =>
      seen.push([...parent, key].join('.')),
    );
    expect(seen.sort()).toEqual(['a', 'a.0.b', 'c']);
    const refuse = () =>
      pathTooDeep({ ok: { bad: 1 } }, maxBodyDepth, (key) => {
        if (key === 'bad') throw new Error(key);
      });
    expect(refuse).toThrow('bad');
  });
});

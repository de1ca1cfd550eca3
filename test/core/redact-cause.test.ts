// The redactor on pathological values: nested deep, a "__proto__" key, cycles, symbols, containers.
import { describe, expect, it } from 'vitest';
import { maxBodyDepth } from '../../src/core/depth.js';
import { redacted, redactValue } from '../../src/core/redact.js';
import { TEST_KEY } from '../support.js';
import { inspect, redactCause } from './redact-setup.js';

describe('redaction of pathological values', () => {
  it(`redactValue copies a value nested 200,000 deep without recursion, cut past ${maxBodyDepth} levels`, () => {
    let deep: unknown = TEST_KEY;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const copy = redactValue({ deep }, TEST_KEY);
    let level: unknown = (copy as { deep: unknown }).deep;
    let depth = 1;
    while (Array.isArray(level)) {
      level = level[0];
      depth++;
    }
    expect(level).toBe('[nested too deep]');
    expect(depth).toBe(maxBodyDepth);
  });

  it('redactValue keeps a "__proto__" key as a plain property of the copy', () => {
    const copy = redactValue(JSON.parse(`{"__proto__":{"polluted":"${TEST_KEY}"}}`), TEST_KEY) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(JSON.stringify(copy)).not.toContain(TEST_KEY);
  });

  it('redactCause replaces a Request, its Headers and the error’s own properties, and survives cycles', () => {
    const request = new Request(`https://api.example.test/x?k=${encodeURIComponent(TEST_KEY)}`, {
      headers: { authorization: `Bearer ${TEST_KEY}`, 'x-trace': 'kept' },
    });
    const error = Object.assign(new Error('hook failed'), {
      request,
      detail: { note: TEST_KEY },
      code: 'E_HOOK',
    });
    (error as { self?: unknown }).self = error;
    const clean = redactCause(error, TEST_KEY) as Error & Record<string, unknown>;
    expect(clean).not.toBe(error);
    expect(inspect(clean)).not.toContain(TEST_KEY);
    expect(clean.code).toBe('E_HOOK');
    expect(clean.self).toBe(clean);
    const copied = clean.request as Request;
    expect(copied).toBeInstanceOf(Request);
    expect(copied.headers.get('x-trace')).toBe('kept');
    expect(copied.headers.get('authorization')).toBe(`Bearer ${redacted}`);
  });

  it('redactCause cleans what inspect shows beyond named properties: symbol keys, Sets, boxed strings', () => {
    const tag = Symbol('context');
    const named = Symbol(`key ${TEST_KEY}`);
    const error = Object.assign(new Error('fetch failed'), {
      [tag]: `Bearer ${TEST_KEY}`,
      [named]: 'kept',
      seen: new Set(['kept', `Bearer ${TEST_KEY}`]),
      boxed: new String(TEST_KEY),
      marker: Symbol(TEST_KEY),
    });
    const clean = redactCause(error, TEST_KEY) as Error & Record<PropertyKey, unknown>;
    expect(clean).not.toBe(error);
    expect(inspect(clean)).not.toContain(TEST_KEY);
    expect(clean[tag]).toBe(`Bearer ${redacted}`);
    expect([...(clean.seen as Set<string>)]).toEqual(['kept', `Bearer ${redacted}`]);
    expect(Object.getOwnPropertySymbols(clean).map((key) => clean[key])).toContain('kept');
  });

  it('redactCause cleans the own properties of containers beside their entries', () => {
    const note = { note: `Bearer ${TEST_KEY}` };
    const error = Object.assign(new Error('fetch failed'), {
      set: Object.assign(new Set(['a']), note),
      map: Object.assign(new Map([['a', 1]]), note),
      list: Object.assign(['a'], note),
      boxed: Object.assign(new String('hello'), note),
    });
    const clean = redactCause(error, TEST_KEY) as Error & Record<string, Record<string, unknown>>;
    expect(inspect(clean)).not.toContain(TEST_KEY);
    for (const name of ['set', 'map', 'list', 'boxed']) expect(clean[name]!.note).toBe(`Bearer ${redacted}`);
    expect([...(clean.set as unknown as Set<string>)]).toEqual(['a']);
    expect(String(clean.boxed)).toBe('hello');
    expect([...(clean.list as unknown as string[])]).toEqual(['a']);
  });
});

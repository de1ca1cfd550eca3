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

describe('redaction of values whose state a copy by prototype cannot carry', () => {
  const keyed = (extra: Record<string, unknown>) =>
    Object.assign(new Error(`request failed: Bearer ${TEST_KEY}`), extra);
  const shown = (value: unknown) => ({ inspect: inspect(value), json: JSON.stringify(value) });

  it('bytes: kept as they are when they hold no key, their text cleaned when they do', () => {
    const clean = Buffer.from('{"error":"bad gateway"}');
    const view = new DataView(new ArrayBuffer(4));
    const error = keyed({
      clean,
      view,
      leaky: Buffer.from(`{"auth":"${TEST_KEY}"}`),
      array: new TextEncoder().encode(`Bearer ${TEST_KEY}`),
      buffer: new TextEncoder().encode(TEST_KEY).buffer,
    });
    const copy = redactCause(error, TEST_KEY) as Record<string, unknown>;
    const { inspect: text, json } = shown(copy);
    expect(text + json).not.toContain(TEST_KEY);
    expect(copy.clean).toBe(clean);
    expect(copy.view).toBe(view);
    expect(copy.leaky).toBe(`{"auth":"${redacted}"}`);
    expect(copy.array).toBe(`Bearer ${redacted}`);
    expect(copy.buffer).toBe(redacted);
  });

  it('a Date, URLSearchParams and a RegExp: copies of their kind, cleaned', () => {
    const error = keyed({
      at: new Date('2024-05-01T00:00:00Z'),
      form: new URLSearchParams({ api_key: TEST_KEY, page: '2' }),
      pattern: /^a+$/gi,
    });
    const copy = redactCause(error, TEST_KEY) as Record<string, unknown>;
    const { inspect: text, json } = shown(copy);
    expect(text + json).not.toContain(TEST_KEY);
    expect((copy.at as Date).toISOString()).toBe('2024-05-01T00:00:00.000Z');
    expect(text).toContain('2024-05-01T00:00:00.000Z');
    expect([...(copy.form as URLSearchParams)]).toEqual([
      ['api_key', redacted],
      ['page', '2'],
    ]);
    expect(String(copy.pattern)).toBe('/^a+$/gi');
  });

  it('a class that shows itself by its own code (AbortSignal, Blob, private fields) never throws', () => {
    class Vault {
      readonly #secret = TEST_KEY;
      note = `Bearer ${TEST_KEY}`;
      toJSON() {
        return { secret: this.#secret.length };
      }
      [Symbol.for('nodejs.util.inspect.custom')]() {
        return `Vault(${this.#secret.length})`;
      }
    }
    const error = keyed({
      signal: AbortSignal.abort(new Error(`cancel ${TEST_KEY}`)),
      blob: new Blob(['x']),
      vault: new Vault(),
    });
    const copy = redactCause(error, TEST_KEY) as Record<string, unknown>;
    const { inspect: text, json } = shown(copy);
    expect(text + json).not.toContain(TEST_KEY);
    expect((copy.vault as Record<string, unknown>).note).toBe(`Bearer ${redacted}`);
  });
});

describe('redaction of an error where Error.prototype is frozen (a hardened page)', () => {
  it('keeps the name and message of a runtime error, where an assignment of `name` would throw', () => {
    const original = Object.getOwnPropertyDescriptor(Error.prototype, 'name')!;
    // As Object.freeze(Error.prototype) leaves it, for `name` alone: freezing the whole prototype would
    // stay frozen for every later file of this worker.
    Object.defineProperty(Error.prototype, 'name', { ...original, writable: false });
    try {
      const cause = new TypeError('Failed to fetch');
      const clean = redactCause(cause, TEST_KEY) as Error;
      expect(clean).not.toBe('[left out]');
      expect([clean.name, clean.message]).toEqual(['TypeError', 'Failed to fetch']);
    } finally {
      Object.defineProperty(Error.prototype, 'name', original);
    }
  });
});

describe('redaction of what holds the key out of a walk by properties: form fields, functions, promises', () => {
  const holding = (detail: unknown) => Object.assign(new Error('upstream refused'), { detail });

  it('a FormData: a copy of its kind, its fields and file names cleaned', () => {
    const form = new FormData();
    form.append('api_key', TEST_KEY);
    form.append('page', '2');
    form.append('upload', new File(['x'], `key-${TEST_KEY}.txt`, { type: 'text/plain' }));
    const copy = redactCause(holding(form), TEST_KEY) as Record<string, unknown>;
    expect(inspect(copy)).not.toContain(TEST_KEY);
    const fields = copy.detail as FormData;
    expect(fields).toBeInstanceOf(FormData);
    expect(fields.get('api_key')).toBe(redacted);
    expect(fields.get('page')).toBe('2');
    expect((fields.get('upload') as File).name).toBe(`key-${redacted}.txt`);
  });

  it('a function: its own properties cleaned in a stand-in of the same name; a bare one kept', () => {
    const send = Object.assign(function send() {}, {
      defaults: { headers: { authorization: `Bearer ${TEST_KEY}` } },
    });
    const bare = () => 'kept';
    const error = Object.assign(holding(send), { bare });
    const copy = redactCause(error, TEST_KEY) as Record<string, unknown>;
    expect(inspect(copy)).not.toContain(TEST_KEY);
    const standIn = copy.detail as typeof send;
    expect(typeof standIn).toBe('function');
    expect(standIn.name).toBe('send');
    expect(standIn.defaults.headers.authorization).toBe(`Bearer ${redacted}`);
    expect(copy.bare).toBe(bare);
    const named = Object.defineProperty(() => {}, 'name', { value: `use ${TEST_KEY}` });
    expect(inspect(redactCause(holding(named), TEST_KEY))).not.toContain(TEST_KEY);
  });

  it('a function with nothing of its own and a clean name keeps the chain as it is', () => {
    const error = Object.assign(new Error('fetch failed'), { retry: function retry() {}, done: () => {} });
    expect(redactCause(error, TEST_KEY)).toBe(error);
  });

  it('a sloppy-mode function (its own `arguments` and `caller`) is bare too: kept in a copied chain', () => {
    const sloppy = new Function('return 1') as () => number;
    const copy = redactCause(Object.assign(new Error(`refused ${TEST_KEY}`), { sloppy }), TEST_KEY);
    expect((copy as { sloppy: unknown }).sloppy).toBe(sloppy);
  });

  it('a toJSON or inspect method of its own, which a logger calls, is left out, alone too', () => {
    const showsKey = () => ({ authorization: `Bearer ${TEST_KEY}` });
    for (const options of [{ toJSON: showsKey }, { [Symbol.for('nodejs.util.inspect.custom')]: showsKey }]) {
      const error = holding(options);
      const copy = redactCause(error, TEST_KEY) as { detail: object };
      expect(copy).not.toBe(error);
      expect(Reflect.ownKeys(copy.detail)).toEqual([]);
      expect(`${JSON.stringify(copy.detail)} ${inspect(copy)}`).not.toContain(TEST_KEY);
    }
  });

  it('what cannot be read (a Promise’s value, weak collections, iterators) is left out, alone too', () => {
    const target = { authorization: `Bearer ${TEST_KEY}` };
    class Tagged<T> extends Promise<T> {
      override get [Symbol.toStringTag]() {
        return 'Tagged';
      }
    }
    for (const unreadable of [
      Promise.resolve(target),
      Tagged.resolve(target),
      new WeakMap([[target, TEST_KEY]]),
      new WeakSet([target]),
      new Map([[TEST_KEY, 1]]).entries(),
      new Set([TEST_KEY]).values(),
    ]) {
      const error = holding(unreadable);
      const copy = redactCause(error, TEST_KEY) as Record<string, unknown>;
      expect(copy).not.toBe(error);
      expect(copy.detail).toBe('[left out]');
      expect(copy.message).toBe('upstream refused');
      expect(inspect(copy)).not.toContain(TEST_KEY);
    }
  });
});

// The `cache` client option: what it accepts and refuses, and a method's ttl of 0 or undefined.
import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import { thrown } from '../helpers/calls.js';
import { testClient } from '../support.js';
import { cachedClient } from './helpers.js';

describe('the cache option', () => {
  const make = (cache: unknown) => testClient({ cache: cache as never });

  it('names the bad ttl key or value in a ConfigurationError, never quoting the value', () => {
    const refusal = (cache: unknown) => {
      try {
        make(cache);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigurationError);
        return [(error as ConfigurationError).option, (error as Error).message];
      }
      throw new Error('not refused');
    };
    expect(refusal({ ttl: { 'journals.gett': 1000 } })).toEqual([
      "cache.ttl['journals.gett']",
      "cache.ttl['journals.gett']: `cache.ttl` keys are method names such as 'journals.get'",
    ]);
    expect(refusal({ ttl: { 'journals.get': -1 } })).toEqual([
      "cache.ttl['journals.get']",
      "`cache.ttl['journals.get']` must be an integer from 0 to 1000000000000000",
    ]);
    expect(refusal({ ttl: { 'journals.get': 1.5 } })[0]).toBe("cache.ttl['journals.get']");
    expect(refusal({ ttl: 5 })[0]).toBe('cache.ttl');
    expect(refusal({ ttl: null })[0]).toBe('cache.ttl');
    expect(refusal({ staleIfError: '1h' })).toEqual([
      'cache.staleIfError',
      '`cache.staleIfError` must be an integer from 0 to 1000000000000000',
    ]);
    expect(refusal('memory')[0]).toBe('cache');
    expect(refusal(1)[0]).toBe('cache');
    expect(refusal([])[0]).toBe('cache');
    expect(refusal(null)[0]).toBe('cache');
    expect(() => make({ ttl: { 'journals.get': 0, 'subjects.list': 31_536_000_000 } })).not.toThrow();
    // A lifetime past 10^15 ms would put now plus it where integers are rounded.
    expect(refusal({ ttl: { 'subjects.list': Number.MAX_SAFE_INTEGER } })[0]).toBe(
      "cache.ttl['subjects.list']",
    );
    expect(refusal({ staleIfError: 1e15 + 1 })[0]).toBe('cache.staleIfError');
  });

  it('recognises a store by its methods, not its class', () => {
    expect(() => make({ store: {} })).toThrow(/`cache\.store` must be a Keyv/);
    expect(() => make({ store: null })).toThrow(ConfigurationError);
    expect(() => make({ store: { get() {}, set() {}, delete() {} } })).toThrow(
      /`cache\.store` must be a Keyv/,
    );
    expect(make({ store: new Keyv() }).cache).toBeDefined();
    expect(make({ store: { get() {}, set() {}, delete() {}, clear() {} } }).cache).toBeDefined();
    expect(make(false).cache).toBeUndefined();
  });

  it('refuses a store given as the option itself, rather than take its inner store for one', () => {
    expect(() => make(new Keyv())).toThrow(/^`cache` must be true, false or \{ store, ttl, staleIfError \}$/);
    expect(() => make({ get() {}, set() {}, delete() {}, clear() {} })).toThrow(ConfigurationError);
    expect(make({ store: new Keyv() }).cache).toBeDefined();
  });

  it.each([null, 0, '', Number.NaN, 'yes', 1])(
    'refuses %s as the option, as other options refuse it',
    (value) => {
      const error = thrown(() => make(value as never), ConfigurationError);
      expect(error.option).toBe('cache');
    },
  );

  it('never keeps a method whose ttl is 0', async () => {
    const { client, sent } = cachedClient({ cache: { ttl: { 'subjects.list': 0 } } });
    await client.subjects.list();
    expect((await client.subjects.list().withResponse()).cacheStatus).toBe('off');
    expect(sent()).toBe(2);
  });

  it('keeps the default lifetime of a method whose ttl is given as undefined', async () => {
    const { client, sent } = cachedClient({
      cache: { ttl: { 'subjects.list': undefined, 'journals.get': 0 } },
    });
    await client.subjects.list();
    expect((await client.subjects.list().withResponse()).cacheStatus).toBe('hit');
    expect(sent()).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { checkOptionNames, checkQuery, type Endpoint, routeTo } from '../../src/core/endpoint.js';
import { checkId, checkPositiveInteger, checkString } from '../../src/core/params.js';
import { ConfigurationError } from '../../src/index.js';
import { thrown } from '../helpers/calls.js';
import { refusal } from './params-setup.js';

const things: Endpoint = {
  name: 'things.list',
  path: '/shelves/{id}/things',
  pathParams: { id: checkId },
  query: { q: checkString, page: checkPositiveInteger },
  shape: { label: 'things', parse: () => undefined, zod: () => Promise.reject(new Error('unused')) },
  paged: true,
  ttl: 1,
};

describe('routeTo', () => {
  it('checks and encodes each path value as one segment, and keeps the checked values', () => {
    const route = routeTo({ ...things, pathParams: { id: checkString } }, { id: 'a/b c' });
    expect(route.path).toBe('/shelves/a%2Fb%20c/things');
    expect(route.values).toEqual({ id: 'a/b c' });
    expect(route.endpoint?.name).toBe('things.list');
    expect(refusal(() => routeTo(things, { id: 1.5 })).parameter).toBe('id');
  });
});

describe('checkQuery and checkOptionNames', () => {
  const allowed = { timeout: true, headers: true } as const;

  it('builds the query in the declared order, `given` over the caller’s values', () => {
    expect(checkQuery(things, { page: 9, q: 'x' }, { page: 2 })).toEqual({ q: 'x', page: 2 });
    expect(Object.keys(checkQuery(things, { page: 1, q: 'x' }) ?? {})).toEqual(['q', 'page']);
    expect(checkQuery(things, undefined)).toEqual({ q: undefined, page: undefined });
    expect(checkQuery({ ...things, query: {} }, undefined)).toBeUndefined();
  });

  it('refuses an unknown name before it looks at any value, whatever its value', () => {
    for (const value of [undefined, 1, 'x']) {
      const error = refusal(() => checkQuery(things, { q: 5, qq: value }));
      expect(error.parameter).toBe('qq');
      expect(error.message).toBe('things.list() takes no parameter "qq"; it takes q, page');
    }
    expect(refusal(() => checkQuery({ ...things, query: {} }, { q: 'x' })).message).toBe(
      'things.list() takes no parameter "q"; it takes none',
    );
  });

  it('says where a request option given as a parameter goes', () => {
    expect(refusal(() => checkQuery(things, { timeout: 1 })).message).toBe(
      'things.list() takes no parameter "timeout"; request options go in the last argument: things.list(id, params, { timeout })',
    );
  });

  it('takes the allowed request options and refuses any other name in the options', () => {
    expect(() => checkOptionNames(things, { timeout: 1, headers: {} }, allowed)).not.toThrow();
    expect(() => checkOptionNames(things, undefined, allowed)).not.toThrow();
    const misplaced = thrown(() => checkOptionNames(things, { page: 2 }, allowed), ConfigurationError);
    expect(misplaced.option).toBe('page');
    expect(misplaced.message).toBe(
      'things.list() takes "page" as a parameter, not a request option: things.list(id, { page }, options)',
    );
    const error = thrown(() => checkOptionNames(things, { signal: undefined }, allowed), ConfigurationError);
    expect(error.option).toBe('signal');
    expect(error.message).toBe(
      'things.list() takes no parameter or request option "signal"; its request options are timeout, headers',
    );
  });
});

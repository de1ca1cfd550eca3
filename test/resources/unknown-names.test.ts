import { beforeAll, describe, expect, it } from 'vitest';
import { requestOptionNames } from '../../src/core/options/request.js';
import { pageOptionNames } from '../../src/core/resource.js';
import { ConfigurationError, InvalidParameterError } from '../../src/index.js';
import { createMockApi, MOCK_AUTHOR_SORTS, MOCK_PAPER_SORTS } from '../../src/testing/index.js';
import { drain, rejection } from '../helpers/calls.js';
import { testClient } from '../support.js';

/*
 * Every method of every resource, one table: a name a method does not take is refused before any
 * request reaches the mock, naming it: among the parameters an InvalidParameterError, among the
 * options a ConfigurationError (an invalid option of the call); a request option given among the
 * parameters says where request options go; the names a method takes still go out.
 */

const api = createMockApi();
/** Every request that reached the mock. */
const sent: Request[] = [];
const sdk = testClient(
  {
    maxRetries: 0,
    fetch: (input, init) => {
      const request = new Request(input, init);
      sent.push(request);
      return api.handle(request);
    },
  },
  api,
);

/** Ids the mock knows, looked up once so that the calls below that should pass, pass. */
const known = { journal: 0, author: 0, doi: '' };
beforeAll(async () => {
  known.journal = (await sdk.journals.list())[0]!.id;
  known.author = (await sdk.authors.list()).data[0]!.id;
  known.doi = (await sdk.papers.search({ per_page: 1 })).data[0]!.doi!;
});

/** A method that takes parameters: its call with a parameters object, and with one of options. */
interface WithParams {
  readonly method: string;
  readonly params: (params: object) => PromiseLike<unknown>;
  readonly options: (options: object) => PromiseLike<unknown>;
  /** Parameters it takes, and the query they send. */
  readonly valid: readonly [params: object, query: string];
  readonly optionNames: readonly string[];
}

const withParams: WithParams[] = [
  {
    method: 'countries.list',
    params: (p) => sdk.countries.list(p as never),
    options: (o) => sdk.countries.list({}, o as never),
    valid: [{ show: 'all' }, '?show=all'],
    optionNames: Object.keys(requestOptionNames),
  },
  {
    method: 'papers.search',
    params: (p) => sdk.papers.search(p as never),
    options: (o) => sdk.papers.search({}, o as never),
    valid: [
      { q: 'graph', year: 2021, oa: true, sort: MOCK_PAPER_SORTS[0], page: 2, per_page: 5 },
      `?q=graph&year=2021&oa=true&sort=${MOCK_PAPER_SORTS[0]}&page=2&per_page=5`,
    ],
    optionNames: Object.keys(pageOptionNames),
  },
  {
    method: 'authors.list',
    params: (p) => sdk.authors.list(p as never),
    options: (o) => sdk.authors.list({}, o as never),
    valid: [
      { q: 'a', country_id: 1, field_id: 1, sort: MOCK_AUTHOR_SORTS[0], page: 1 },
      `?q=a&country_id=1&field_id=1&sort=${MOCK_AUTHOR_SORTS[0]}&page=1`,
    ],
    optionNames: Object.keys(pageOptionNames),
  },
  {
    method: 'journals.papers',
    params: (p) => sdk.journals.papers(known.journal, p as never),
    options: (o) => sdk.journals.papers(known.journal, {}, o as never),
    valid: [{ page: 1, per_page: 3 }, '?page=1&per_page=3'],
    optionNames: Object.keys(pageOptionNames),
  },
];

/** A method that takes no parameters: its call with an options object. */
const withoutParams: ReadonlyArray<
  readonly [method: string, call: (options: object) => PromiseLike<unknown>]
> = [
  ['journals.list', (o) => sdk.journals.list(o as never)],
  ['journals.get', (o) => sdk.journals.get(known.journal, o as never)],
  ['journals.score', (o) => sdk.journals.score(known.journal, o as never)],
  ['subjects.list', (o) => sdk.subjects.list(o as never)],
  ['authors.get', (o) => sdk.authors.get(known.author, o as never)],
  ['papers.get', (o) => sdk.papers.get(known.doi, o as never)],
  ['papers.getMany', (o) => sdk.papers.getMany([known.doi], o as never)],
];

/** The refusal `call` rejects with; fails unless it is a `kind` naming `name` and nothing was sent. */
async function refusal(
  call: () => PromiseLike<unknown>,
  name: string,
  kind: typeof InvalidParameterError | typeof ConfigurationError = InvalidParameterError,
): Promise<Error> {
  const before = sent.length;
  const error = await rejection(call());
  expect(error).toBeInstanceOf(kind);
  const named =
    error instanceof ConfigurationError ? error.option : (error as InvalidParameterError).parameter;
  expect(named).toBe(name);
  expect((error as Error).message).toContain(`"${name}"`);
  expect(sent.length).toBe(before);
  return error as Error;
}
/** The refusal of a name in a call's options. */
const optionRefusal = (call: () => PromiseLike<unknown>, name: string) =>
  refusal(call, name, ConfigurationError);

describe.each(withParams)('$method', ({ method, params, options, valid, optionNames }) => {
  it('refuses an unknown parameter, naming it and what the method takes', async () => {
    const error = await refusal(() => params({ per_pgae: 5 }), 'per_pgae');
    expect(error.message).toMatch(
      new RegExp(`^${method.replace('.', '\\.')}\\(\\) takes no parameter "per_pgae"; it takes `),
    );
  });

  it.each(optionNames)(
    'refuses the request option %s among the parameters, saying where it goes',
    async (name) => {
      const error = await refusal(() => params({ [name]: { authorization: 'Bearer someone-else' } }), name);
      expect(error.message).toContain('request options go in the last argument');
      expect(error.message).toContain(`{ ${name} })`);
      expect(error.message).not.toContain('someone-else');
    },
  );

  it('refuses a name in the options that is no request option, and a parameter put there', async () => {
    await optionRefusal(() => options({ per_pgae: 5 }), 'per_pgae');
    const [given] = valid;
    const parameter = Object.keys(given)[0]!;
    const error = await optionRefusal(
      () => options({ [parameter]: (given as Record<string, unknown>)[parameter] }),
      parameter,
    );
    expect(error.message).toContain('as a parameter, not a request option');
  });

  it('sends the parameters it takes, with request options in the last argument', async () => {
    const [given, query] = valid;
    const before = sent.length;
    await params(given);
    await options({ headers: { 'x-trace': 't1' }, timeout: 5_000, maxRetries: 0 });
    expect(sent.slice(before).map((request) => new URL(request.url).search)[0]).toBe(query);
    expect(sent.at(-1)!.headers.get('x-trace')).toBe('t1');
  });
});

describe.each(withoutParams)('%s (no parameters)', (method, call) => {
  it('refuses any name that is no request option', async () => {
    const error = await optionRefusal(() => call({ q: 'x' }), 'q');
    expect(error.message).toContain(`${method}() takes no parameter or request option "q"`);
    await optionRefusal(() => call({ page: 2 }), 'page');
  });

  it('takes every request option', async () => {
    const before = sent.length;
    const controller = new AbortController();
    await call({
      signal: controller.signal,
      timeout: 5_000,
      maxRetries: 0,
      headers: { 'x-trace': 't2' },
      cache: false,
      maxResponseBytes: 1_000_000,
    });
    expect(sent.length).toBe(before + 1);
    expect(sent.at(-1)!.headers.get('x-trace')).toBe('t2');
  });
});

describe('what the issue saw', () => {
  it('countries.list({ headers }) is refused, not sent with the client key', async () => {
    const error = await refusal(
      () => sdk.countries.list({ headers: { authorization: 'Bearer other' } } as never),
      'headers',
    );
    expect(error.message).toBe(
      'countries.list() takes no parameter "headers"; request options go in the last argument: countries.list(params, { headers })',
    );
  });

  it('papers.search with a typo is refused, when awaited and when walked', async () => {
    await refusal(() => sdk.papers.search({ q: 'graph', per_pgae: 5 } as never), 'per_pgae');
    await refusal(() => drain(sdk.papers.search({ q: 'graph', per_pgae: 5 } as never)), 'per_pgae');
  });

  it('quotes an unknown name safely: escaped and cut short', async () => {
    const name = `\u001b]52;c;${'x'.repeat(80)}\u0007`;
    const before = sent.length;
    const error = await rejection(sdk.papers.search({ [name]: 1 } as never));
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect((error as Error).message).not.toMatch(/\p{Cc}/u);
    expect((error as Error).message).toContain(`(${name.length} characters)`);
    expect(sent.length).toBe(before);
  });
});

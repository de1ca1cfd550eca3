import fc from 'fast-check';
import { http } from 'msw';
import type { SetupServer } from 'msw/node';
import { expect } from 'vitest';
import {
  ConfigurationError,
  InvalidParameterError,
  type MetricError,
  ResponseValidationError,
} from '../../src/index.js';
import { BASE, inProcessFetch, json } from './msw.js';
import { testClient } from './test-client.js';

/** Any value at all, kept shallow so that thousands of property runs stay fast. */
export const anyValue = fc.anything({ maxDepth: 1, maxKeys: 3, size: 'xsmall' });

/** The call rejects with a ResponseValidationError whose issues sit exactly at these paths. */
export async function expectRefusedResponse(promise: PromiseLike<unknown>, paths: string[]) {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(ResponseValidationError);
  expect((error as ResponseValidationError).issues.map((issue) => issue.path.join('.'))).toEqual(paths);
}

/** Path and query as the server received them. */
export const target = (request: Request) => {
  const url = new URL(request.url);
  return url.pathname + url.search;
};

export async function drain<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/**
 * What a call ends with when it fails: `work`'s rejection (or, given a function, what it throws at
 * once); fails the test when it succeeds.
 */
export async function failure(work: PromiseLike<unknown> | (() => PromiseLike<unknown>)): Promise<Error> {
  const promise = typeof work === 'function' ? Promise.resolve().then(work) : work;
  return Promise.resolve(promise).then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error as Error,
  );
}

/** The error `run` throws, an instance of `type`; fails the test when it throws nothing. */
export function thrown<E extends Error = Error>(
  run: () => unknown,
  type: abstract new (...args: never[]) => E = Error as unknown as abstract new (
    ...args: never[]
  ) => E,
): E {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as E;
  }
  throw new Error(`expected ${type.name === 'Error' ? 'an error' : `a ${type.name}`}, nothing was thrown`);
}

/** What the promise rejects with, or `undefined` when it fulfils. */
export async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  return Promise.resolve(promise).then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** Checks of refusals before sending, against one test file's msw server. */
export function refusals(server: SetupServer) {
  /** Counts every request that reaches the server, whatever its path. */
  function catchAll() {
    const seen: Request[] = [];
    server.use(
      http.all('*', ({ request }) => {
        seen.push(request);
        return json({ message: 'should not be reached' }, { status: 400 });
      }),
    );
    return seen;
  }

  /**
   * The call returns (no synchronous throw) a promise that rejects, and nothing is sent: with
   * ConfigurationError for a call option, InvalidParameterError for an API parameter.
   */
  async function expectRefused(
    call: () => PromiseLike<unknown>,
    parameter: string,
    named: RegExp | string = parameter,
  ) {
    const seen = catchAll();
    let promise: PromiseLike<unknown> | undefined;
    expect(() => {
      promise = call();
    }).not.toThrow();
    const error = await rejection(promise!);
    if (callOptions.has(parameter)) {
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as ConfigurationError).option).toBe(parameter);
    } else {
      expect(error).toBeInstanceOf(InvalidParameterError);
      expect((error as InvalidParameterError).parameter).toBe(parameter);
    }
    expect((error as Error).message).toMatch(named);
    expect(seen).toHaveLength(0);
    return error as MetricError;
  }

  return { catchAll, expectRefused };
}

/**
 * An msw handler answering every GET under {@link BASE} with `bodyFor(url)`, recording each URL it
 * receives in `calls`.
 */
export function recordingHandler(bodyFor: (url: URL) => unknown) {
  const calls: URL[] = [];
  const handler = http.get(`${BASE}/*`, ({ request }) => {
    const url = new URL(request.url);
    calls.push(url);
    return json(bodyFor(url));
  });
  return { calls, handler };
}

/**
 * A client of the msw server with a {@link recordingHandler} in place. Its fetch answers from the
 * server's handlers in-process, so that thousands of property runs stay fast.
 */
export function recordingClient(server: SetupServer, bodyFor: (url: URL) => unknown) {
  const { calls, handler } = recordingHandler(bodyFor);
  server.use(handler);
  return { calls, sdk: testClient({ fetch: inProcessFetch(server), maxRetries: 0 }) };
}

/** The names of a call's options, refused with ConfigurationError rather than InvalidParameterError. */
const callOptions = new Set([
  'options',
  'signal',
  'timeout',
  'maxRetries',
  'headers',
  'maxResponseBytes',
  'cache',
  'prefetch',
  'concurrency',
]);

/**
 * The verdict on one arbitrary parameters object: when it names only ruled parameters and every rule
 * holds, it is sent to `path` with exactly the ruled parameters that are defined (`page` defaulting
 * to 1); otherwise it is refused with `InvalidParameterError` and nothing is sent.
 */
export async function expectSentOrRefused(
  calls: URL[],
  path: string,
  params: unknown,
  rules: Record<string, (value: unknown) => boolean>,
  call: () => PromiseLike<unknown>,
) {
  const before = calls.length;
  const error = await rejection(call());
  const record = (params ?? {}) as Record<string, unknown>;
  const valid =
    params === undefined ||
    (typeof params === 'object' &&
      params !== null &&
      !Array.isArray(params) &&
      Object.keys(record).every((name) => Object.hasOwn(rules, name)) &&
      Object.entries(rules).every(([name, ok]) => ok(record[name])));
  if (error === undefined) {
    expect(valid).toBe(true);
    expect(calls.length).toBe(before + 1);
    const url = calls.at(-1)!;
    expect(url.pathname).toBe(path);
    const expected = Object.keys(rules)
      .map((name) => [name, name === 'page' ? (record.page ?? 1) : record[name]] as const)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, String(value)]);
    expect([...url.searchParams]).toEqual(expected);
  } else {
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect(valid).toBe(false);
    expect(calls.length).toBe(before);
  }
}

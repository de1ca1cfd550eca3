import { http } from 'msw';
import type { setupServer } from 'msw/node';
import { expect } from 'vitest';
import { InvalidParameterError } from '../../src/index.js';
import { json } from './msw.js';

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

/** What the promise rejects with, or `undefined` when it fulfils. */
export async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  return Promise.resolve(promise).then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** Checks of refusals before sending, against one test file's msw server. */
export function refusals(server: ReturnType<typeof setupServer>) {
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

  /** The call returns (no synchronous throw) a promise that rejects with InvalidParameterError; nothing is sent. */
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
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect((error as InvalidParameterError).parameter).toBe(parameter);
    expect((error as Error).message).toMatch(named);
    expect(seen).toHaveLength(0);
    return error as InvalidParameterError;
  }

  return { catchAll, expectRefused };
}

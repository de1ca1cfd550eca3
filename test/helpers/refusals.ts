import { expect, it, vi } from 'vitest';
import { ConfigurationError, InvalidParameterError, MetricError } from '../../src/index.js';
import { TEST_KEY } from './test-key.js';

/*
 * The option checkers' tables, entry by entry: each bad option is refused with a ConfigurationError
 * whose `option` names it, before anything is sent or started, and never quoting the secret given.
 */

/** A value no refusal may quote. */
export const secret = TEST_KEY;

/** One refusal: the entry, the option its error names, and what to run. */
export type RefusalCase = readonly [entry: string, option: string, refuse: () => unknown];

export function expectRefusal(error: unknown, option: string) {
  expect(error).toBeInstanceOf(ConfigurationError);
  expect(error).toBeInstanceOf(MetricError);
  expect(error).not.toBeInstanceOf(InvalidParameterError);
  expect((error as ConfigurationError).option).toBe(option);
  expect((error as Error).message).not.toContain(secret);
}

/** Construction-time options: the refusal is thrown. */
export function itRefusesAtConstruction(cases: RefusalCase[]) {
  it.each(cases)('%s: %s', (_entry, option, refuse) => {
    let error: unknown;
    try {
      refuse();
    } catch (caught) {
      error = caught;
    }
    expectRefusal(error, option);
  });
}

/** A call's options (and the mock server's): the call returns a promise, which rejects before anything is sent. */
export function itRefusesAtCall(cases: RefusalCase[]) {
  it.each(cases)('%s: %s', async (_entry, option, refuse) => {
    const sent = vi.fn(async () => new Response('[]'));
    vi.stubGlobal('fetch', sent);
    let promise: unknown;
    expect(() => {
      promise = refuse();
    }).not.toThrow();
    const error = await (promise as Promise<unknown>).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expectRefusal(error, option);
    expect(sent).not.toHaveBeenCalled();
  });
}

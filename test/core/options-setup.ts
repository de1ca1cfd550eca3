// What the client options tests share: a start from an empty environment and a journal to fetch.
import type { SetupServer } from 'msw/node';
import { afterEach, beforeEach, vi } from 'vitest';
import { journalProfile, json, sequence } from '../support.js';

/** Starts each test of the calling file with no METRIC_ variable, and undoes its stubs after. */
export function fromNoEnvironment() {
  beforeEach(() => {
    // Whatever the machine's environment holds, these tests start from none of it.
    vi.stubEnv('METRIC_API_KEY', '');
    vi.stubEnv('METRIC_BASE_URL', '');
    vi.stubEnv('METRIC_LOG', '');
  });

  afterEach(() => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
  });
}

/** The `journal42` of one test file: serves a profile on that file's msw `server`, logging requests. */
export function journal42On(server: SetupServer) {
  return function journal42() {
    const { handler, seen } = sequence('/journals/42', [() => json(journalProfile)]);
    server.use(handler);
    return seen;
  };
}

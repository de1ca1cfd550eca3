// What the logger tests share: no METRIC_LOG from the machine, and a journal for the client to fetch.
import { http } from 'msw';
import type { SetupServer } from 'msw/node';
import { afterEach, beforeEach, vi } from 'vitest';
import { BASE, journalProfile, json } from '../support.js';

/** Starts each test of the calling file with METRIC_LOG empty, and undoes its stubs and spies after. */
export function withoutLogSettings() {
  beforeEach(() => {
    vi.stubEnv('METRIC_LOG', '');
  });

  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });
}

/** The `journal42` of one test file: serves a journal profile on that file's msw `server`. */
export function journal42On(server: SetupServer) {
  return function journal42() {
    server.use(http.get(`${BASE}/journals/42`, () => json(journalProfile)));
  };
}

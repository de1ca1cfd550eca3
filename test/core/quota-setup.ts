// What the tests of a client's own quota share: the answers, a server that logs when it was asked,
// a fake clock to move by hand, and replies that rate-limit.
import { http } from 'msw';
import type { SetupServer } from 'msw/node';
import { vi } from 'vitest';
import { clockStart } from '../helpers/fake-clock.js';
import { BASE, json } from '../support.js';

export const subjects = [
  { id: 1, name: 'Physics', slug: 'physics', journals: 3, papers: 40, citations: 900 },
];
export const countries = [
  { id: 64, name: 'New Zealand', flag: 'nz', journals: 12, papers: 340, citations: 5600 },
];
/** Where the fake clock starts: the server's log counts from it. */
const start = clockStart;

/** The `serve` of one test file, answering on that file's msw `server`. */
export function serveOn(server: SetupServer) {
  /** The server's log: which path it was asked for, and when (ms after `start`, on the fake clock). */
  function serve(replies: Record<string, () => Response | Promise<Response>>) {
    const log: Array<{ path: string; at: number }> = [];
    for (const [path, reply] of Object.entries(replies)) {
      server.use(
        http.get(`${BASE}${path}`, () => {
          log.push({ path, at: Date.now() - start });
          return reply();
        }),
      );
    }
    return log;
  }
  return serve;
}

export const at = async (ms: number) => vi.advanceTimersByTimeAsync(ms - (Date.now() - start));
export const limited = (seconds: number) => () =>
  json({ message: 'slow down' }, { status: 429, headers: { 'retry-after': String(seconds) } });
/** A reply that answers the first call with `first`, every later one with `then`. */
export const once = (first: () => Response, then: () => Response) => {
  let calls = 0;
  return () => (calls++ === 0 ? first() : then());
};
export const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

// The API the papers.getMany tests talk to: `GET /papers/{doi}` on the test file's msw server, answered
// at once (`papersApi`) or held until the test releases each request (`holdingApi`).
import { http } from 'msw';
import type { SetupServer } from 'msw/node';
import { afterEach } from 'vitest';
import { BASE, json } from '../support.js';

export const paperFor = (doi: string) => ({
  id: 1,
  title: `Paper ${doi}`,
  authors: 'A. Author',
  doi,
  year: 2021,
  citations: 3,
  abstract: 'We test.',
});
export const ok = (doi: string) => json(paperFor(doi));
export const dois = (n: number) => Array.from({ length: n }, (_, i) => `10.1000/p${i}`);

/** The DOI as the server received it: the fourth path segment, decoded. */
export const doiOf = (request: Request) => decodeURIComponent(new URL(request.url).pathname.split('/')[4]!);

/** Lets any request that was about to be sent reach the server. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

interface Held {
  readonly doi: string;
  readonly request: Request;
  release(response?: Response): void;
}

/** `papersApi` and `holdingApi` on the test file's `server`. */
export function useGetManyApi(server: SetupServer) {
  /** Held requests are released at the end of each test, whatever became of their callers. */
  const releaseAll: Array<() => void> = [];
  afterEach(() => {
    for (const release of releaseAll.splice(0)) release();
  });
  return { papersApi: papersApiOn(server), holdingApi: holdingApiOn(server, releaseAll) };
}

/** `GET /papers/{doi}` answered by `reply(doi)`, every DOI received recorded in order. */
function papersApiOn(server: SetupServer) {
  return (reply: (doi: string) => Response | Promise<Response> = ok) => {
    const seen: string[] = [];
    server.use(
      http.get(`${BASE}/papers/*`, ({ request }) => {
        const doi = doiOf(request);
        seen.push(doi);
        return reply(doi);
      }),
    );
    return seen;
  };
}

/**
 * `GET /papers/{doi}` held until the test releases it (`decide` may answer some DOIs at once):
 * answers complete in whatever order the test chooses, and what is in flight can be counted.
 */
function holdingApiOn(server: SetupServer, releaseAll: Array<() => void>) {
  return (decide: (doi: string) => Response | undefined = () => undefined) => {
    const held: Held[] = [];
    const seen: string[] = [];
    const waiting: Array<{ count: number; resolve: () => void }> = [];
    server.use(
      http.get(`${BASE}/papers/*`, ({ request }) => {
        const doi = doiOf(request);
        seen.push(doi);
        const now = decide(doi);
        if (now) return now;
        return new Promise<Response>((resolve) => {
          const release = (response?: Response) => resolve(response ?? ok(doi));
          held.push({ doi, request, release });
          releaseAll.push(() => release());
          for (const waiter of waiting.filter((w) => held.length >= w.count)) waiter.resolve();
        });
      }),
    );
    /** Resolves once `count` requests are held (the test's own timeout catches a shortfall). */
    const holding = (count: number) =>
      new Promise<void>((resolve) => {
        if (held.length >= count) resolve();
        else waiting.push({ count, resolve });
      });
    return { held, seen, holding };
  };
}

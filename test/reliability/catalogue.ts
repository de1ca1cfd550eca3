/**
 * Every fault the reliability suite injects, with what the SDK must do about it. faults.test.ts runs
 * each one and checks the outcome, the attempts and the time to settle; secrets.test.ts runs each
 * one again and looks for the API key in everything the failure left behind.
 *
 * Times are kept short with `Retry-After: 0/1`, short timeouts and `maxRetries`; where nothing is
 * set, the defaults apply (2 retries, so 3 attempts, with backoff of about 0.5 s then 1 s).
 */
import { createServer } from 'node:net';
import { expect } from 'vitest';
import type { ClientOptions } from '../../src/core/options.js';
import { type APIError, type RateLimitError, ResponseValidationError } from '../../src/index.js';
import {
  dribble,
  type FaultServer,
  falseGzip,
  type Handler,
  htmlPage,
  json,
  never,
  redirect,
  resetBeforeResponse,
  resetMidBody,
  type Scenario,
  subjects,
  truncatedJson,
} from './fault-server.js';
import type { Settled } from './harness.js';
import { KEY } from './harness.js';

export interface Servers {
  readonly main: FaultServer;
  readonly other: FaultServer;
}

export interface Prepared {
  /** The base URL the client is given. */
  readonly base: string;
  /** Scenarios whose requests count as attempts the servers saw. */
  readonly scenarios: readonly Scenario[];
  /** The redirect target, on the other origin. */
  readonly target?: Scenario;
}

export interface FaultCase {
  /** The row's name in the README table. */
  readonly fault: string;
  /** What the server does. */
  readonly server: string;
  /** What the SDK does about it. */
  readonly sdk: string;
  readonly prepare: (servers: Servers) => Promise<Prepared> | Prepared;
  readonly options?: ClientOptions;
  /** The error class name, or `success`. */
  readonly outcome: string;
  /** Requests the SDK sent (calls of fetch). */
  readonly sent: number;
  /** Requests the servers saw, every origin together. */
  readonly seen: number;
  /** Attempts whose status and headers arrived (the fault struck while reading the body). */
  readonly answered?: number;
  /** It must not settle sooner (a wait that must have happened). */
  readonly minMs?: number;
  /** It must settle within this, generously above the expected time. */
  readonly maxMs: number;
  readonly check?: (result: Settled<unknown>, prepared: Prepared) => void;
}

const on =
  (...handlers: Handler[]) =>
  ({ main }: Servers): Prepared => {
    const scenario = main.scenario(...handlers);
    return { base: scenario.base, scenarios: [scenario] };
  };

const ok = json(subjects);

/** A base URL on 127.0.0.1 where nothing listens: a port that was free a moment ago. */
async function closedPort(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}/api/v1`;
}

function crossOriginRedirect(status: 302 | 307) {
  return ({ main, other }: Servers): Prepared => {
    const target = other.scenario(ok);
    const source = main.scenario(redirect(status, `${target.base}/subjects`));
    return { base: source.base, scenarios: [source, target], target };
  };
}

const errorOf = (result: Settled<unknown>) => result.error as APIError;

export const catalogue: readonly FaultCase[] = [
  {
    fault: 'reset before any response',
    server: 'TCP reset as soon as the request arrives, every time',
    sdk: 'retries with backoff (≈0.5 s, ≈1 s), then gives up',
    prepare: on(resetBeforeResponse()),
    outcome: 'ConnectionError',
    sent: 3,
    seen: 3,
    answered: 0,
    minMs: 1_100,
    maxMs: 4_000,
  },
  {
    fault: 'reset once, then healthy',
    server: 'TCP reset on the first request, a valid answer after',
    sdk: 'retries once after ≈0.5 s and returns the answer',
    prepare: on(resetBeforeResponse(), ok),
    outcome: 'success',
    sent: 2,
    seen: 2,
    minMs: 370,
    maxMs: 2_500,
  },
  {
    fault: 'reset mid-body',
    server: 'headers and half the body, then a TCP reset',
    sdk: 'the body read fails; retried like a reset',
    prepare: on(resetMidBody()),
    outcome: 'ConnectionError',
    sent: 3,
    seen: 3,
    answered: 3,
    minMs: 1_100,
    maxMs: 4_000,
  },
  {
    fault: 'never answering',
    server: 'reads the request, sends nothing, keeps the socket open',
    sdk: 'each attempt times out (`timeout: 250`), retried once (`maxRetries: 1`)',
    prepare: on(never()),
    options: { timeout: 250, maxRetries: 1 },
    outcome: 'TimeoutError',
    sent: 2,
    seen: 2,
    minMs: 850,
    maxMs: 3_500,
  },
  {
    fault: 'body dribbled past the timeout',
    server: 'headers at once, then 1 byte every 50 ms',
    sdk: 'the timeout covers the body read: times out, retried once',
    prepare: on(dribble(subjects, 1, 50)),
    options: { timeout: 250, maxRetries: 1 },
    outcome: 'TimeoutError',
    sent: 2,
    seen: 2,
    answered: 2,
    minMs: 850,
    maxMs: 3_500,
  },
  {
    fault: 'body dribbled within the timeout',
    server: '16 bytes every 25 ms (≈0.3 s for the body)',
    sdk: 'slow is not an error: waits and returns the answer',
    prepare: on(dribble(subjects, 16, 25)),
    options: { timeout: 5_000 },
    outcome: 'success',
    sent: 1,
    seen: 1,
    minMs: 200,
    maxMs: 2_500,
  },
  {
    fault: 'truncated JSON, honest Content-Length',
    server: '200, 60 % of the JSON, Content-Length of what was sent',
    sdk: 'a complete HTTP answer with a broken body: not retried',
    prepare: on(truncatedJson('honest-length')),
    outcome: 'ResponseValidationError',
    sent: 1,
    seen: 1,
    maxMs: 1_500,
    check: (result) => {
      const error = result.error as ResponseValidationError;
      expect(error.message).toMatch(/not JSON/);
      expect(error.body).toBe(
        JSON.stringify(subjects).slice(0, Math.floor(JSON.stringify(subjects).length * 0.6)),
      );
    },
  },
  {
    fault: 'truncated JSON, Content-Length promising more',
    server: '200, Content-Length of the whole body, 60 % of it, then closes',
    sdk: 'the connection ended early: retried like a reset',
    prepare: on(truncatedJson('full-length')),
    outcome: 'ConnectionError',
    sent: 3,
    seen: 3,
    answered: 3,
    minMs: 1_100,
    maxMs: 4_000,
  },
  {
    fault: 'truncated JSON, chunked, no last chunk',
    server: '200 chunked, 60 % of the JSON, then closes',
    sdk: 'the connection ended early: retried like a reset',
    prepare: on(truncatedJson('chunked')),
    outcome: 'ConnectionError',
    sent: 3,
    seen: 3,
    answered: 3,
    minMs: 1_100,
    maxMs: 4_000,
  },
  {
    fault: 'Content-Encoding: gzip on a plain body',
    server: '200, valid JSON, but labelled gzip',
    sdk: 'decompression fails in the body read: retried like a reset',
    prepare: on(falseGzip()),
    outcome: 'ConnectionError',
    sent: 3,
    seen: 3,
    answered: 3,
    minMs: 1_100,
    maxMs: 4_000,
  },
  {
    fault: "proxy's HTML 502 page",
    server: '502 text/html from "nginx", every time',
    sdk: 'retried with backoff; the HTML is kept as text in `error.body`',
    prepare: on(htmlPage(502, 'Bad Gateway')),
    outcome: 'InternalServerError',
    sent: 3,
    seen: 3,
    minMs: 1_100,
    maxMs: 4_000,
    check: (result) => {
      const error = errorOf(result);
      expect(error.status).toBe(502);
      expect(error.body).toMatch(/^<html>/);
      expect(error.message).toMatch(/^502 Bad Gateway: <html>/);
    },
  },
  {
    fault: "proxy's HTML 503 page, Retry-After: 1, then healthy",
    server: '503 text/html with Retry-After: 1, a valid answer after',
    sdk: 'waits the second it was told, then returns the answer',
    prepare: on(htmlPage(503, 'Service Temporarily Unavailable', { 'retry-after': '1' }), ok),
    outcome: 'success',
    sent: 2,
    seen: 2,
    minMs: 950,
    maxMs: 3_000,
  },
  {
    fault: 'HTML page with status 200',
    server: 'a login or captive-portal page, 200 text/html',
    sdk: 'not the API: refused, not retried, the page kept in `error.body`',
    prepare: on(htmlPage(200, 'Please sign in')),
    outcome: 'ResponseValidationError',
    sent: 1,
    seen: 1,
    maxMs: 1_500,
    check: (result) => {
      expect((result.error as ResponseValidationError).body).toContain('Please sign in');
    },
  },
  {
    fault: '200 with wrong types',
    server: 'valid JSON, but `id` a string, `name` a number, `journals` a float',
    sdk: 'refused with every issue by path; not retried',
    prepare: on(json([{ ...subjects[0], id: '1', name: 7, journals: 3.5 }])),
    outcome: 'ResponseValidationError',
    sent: 1,
    seen: 1,
    maxMs: 1_500,
    check: (result) => {
      const error = result.error as ResponseValidationError;
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error.issues.map((issue) => issue.path.join('.'))).toEqual(['0.id', '0.name', '0.journals']);
    },
  },
  {
    fault: '200 with unknown extra fields',
    server: 'valid answer plus fields the API document does not list',
    sdk: 'accepted; the extra fields are kept',
    prepare: on(
      json(
        [
          { ...subjects[0], impact: 3.2, tags: ['x'] },
          { ...subjects[1], _links: { self: '/x' } },
        ],
        200,
        {
          'x-new-header': '1',
        },
      ),
    ),
    outcome: 'success',
    sent: 1,
    seen: 1,
    maxMs: 1_500,
    check: (result) => {
      expect(result.value).toEqual([
        { ...subjects[0], impact: 3.2, tags: ['x'] },
        { ...subjects[1], _links: { self: '/x' } },
      ]);
    },
  },
  {
    fault: '429, Retry-After in seconds (1)',
    server: '429 Retry-After: 1, a valid answer after',
    sdk: 'waits the second it was told, then returns the answer',
    prepare: on(json({ message: 'slow down' }, 429, { 'retry-after': '1' }), ok),
    outcome: 'success',
    sent: 2,
    seen: 2,
    minMs: 950,
    maxMs: 3_000,
  },
  {
    fault: '429, Retry-After as an HTTP date (≈2 s ahead)',
    server: '429 Retry-After: <HTTP date 2 s ahead>, a valid answer after',
    sdk: 'waits until that date, then returns the answer',
    prepare: on((req, res, attempt) => {
      const soon = new Date(Date.now() + 2_000).toUTCString();
      json({ message: 'slow down' }, 429, { 'retry-after': soon })(req, res, attempt);
    }, ok),
    outcome: 'success',
    sent: 2,
    seen: 2,
    minMs: 900,
    maxMs: 4_500,
  },
  {
    fault: '429, Retry-After far in the future (3600 s)',
    server: '429 Retry-After: 3600 (a daily limit)',
    sdk: 'surfaces at once, not retried; `retryAfter` is 3600',
    prepare: on(json({ message: 'daily limit reached' }, 429, { 'retry-after': '3600' })),
    outcome: 'RateLimitError',
    sent: 1,
    seen: 1,
    maxMs: 1_500,
    check: (result) => {
      expect((result.error as RateLimitError).retryAfter).toBe(3600);
    },
  },
  {
    fault: '429, Retry-After an HTTP date tomorrow',
    server: '429 Retry-After: <HTTP date 24 h ahead>',
    sdk: 'surfaces at once, not retried; `retryAfter` ≈ 86 400',
    prepare: on((req, res, attempt) => {
      const tomorrow = new Date(Date.now() + 86_400_000).toUTCString();
      json({ message: 'daily limit reached' }, 429, { 'retry-after': tomorrow })(req, res, attempt);
    }),
    outcome: 'RateLimitError',
    sent: 1,
    seen: 1,
    maxMs: 1_500,
    check: (result) => {
      const retryAfter = (result.error as RateLimitError).retryAfter!;
      expect(retryAfter).toBeGreaterThanOrEqual(86_390);
      expect(retryAfter).toBeLessThanOrEqual(86_401);
    },
  },
  {
    fault: '429 storm, Retry-After: 0',
    server: '429 Retry-After: 0, every time',
    sdk: 'retries at once, exactly `maxRetries` times, then `RateLimitError`',
    prepare: on(json({ message: 'slow down' }, 429, { 'retry-after': '0' })),
    outcome: 'RateLimitError',
    sent: 3,
    seen: 3,
    maxMs: 1_500,
    check: (result) => {
      expect((result.error as RateLimitError).retryAfter).toBe(0);
    },
  },
  {
    fault: '429 storm, no Retry-After',
    server: '429 without Retry-After, every time',
    sdk: 'retries with backoff, then `RateLimitError` (`retryAfter` undefined)',
    prepare: on(json({ message: 'slow down' }, 429)),
    outcome: 'RateLimitError',
    sent: 3,
    seen: 3,
    minMs: 1_100,
    maxMs: 4_000,
    check: (result) => {
      expect((result.error as RateLimitError).retryAfter).toBeUndefined();
    },
  },
  {
    fault: '503 storm, Retry-After: 0',
    server: '503 JSON with Retry-After: 0, every time',
    sdk: 'exactly `maxRetries` (here 5) retries, never more',
    prepare: on(json({ message: 'overloaded' }, 503, { 'retry-after': '0' })),
    options: { maxRetries: 5 },
    outcome: 'InternalServerError',
    sent: 6,
    seen: 6,
    maxMs: 1_500,
  },
  {
    fault: '503 storm, no Retry-After',
    server: '503 JSON, every time',
    sdk: 'backoff ≈0.5 s then ≈1 s, then `InternalServerError`',
    prepare: on(json({ message: 'overloaded' }, 503)),
    outcome: 'InternalServerError',
    sent: 3,
    seen: 3,
    minMs: 1_100,
    maxMs: 4_000,
  },
  {
    fault: '503 for maintenance, Retry-After: 7200',
    server: '503 JSON with Retry-After: 7200 (two hours)',
    sdk: 'surfaces at once, not retried: a wait that long is the caller’s decision',
    prepare: on(json({ message: 'maintenance' }, 503, { 'retry-after': '7200' })),
    outcome: 'InternalServerError',
    sent: 1,
    seen: 1,
    maxMs: 1_500,
    check: (result) => {
      expect(errorOf(result).headers.get('retry-after')).toBe('7200');
    },
  },
  {
    fault: '503 twice, then healthy',
    server: '503 Retry-After: 0 twice, a valid answer after',
    sdk: 'returns the answer on the third attempt',
    prepare: on(
      json({ message: 'overloaded' }, 503, { 'retry-after': '0' }),
      json({ message: 'overloaded' }, 503, { 'retry-after': '0' }),
      ok,
    ),
    outcome: 'success',
    sent: 3,
    seen: 3,
    maxMs: 1_500,
  },
  {
    fault: '302 to another origin',
    server: '302 Location: the same path on another port (another origin)',
    sdk: 'follows it; the Authorization header does not follow',
    prepare: crossOriginRedirect(302),
    outcome: 'success',
    sent: 1,
    seen: 2,
    maxMs: 1_500,
    check: (_result, prepared) => {
      expect(prepared.target!.requests[0]!.headers.authorization).toBeUndefined();
    },
  },
  {
    fault: '307 to another origin',
    server: '307 Location: the same path on another port (another origin)',
    sdk: 'follows it; the Authorization header does not follow',
    prepare: crossOriginRedirect(307),
    outcome: 'success',
    sent: 1,
    seen: 2,
    maxMs: 1_500,
    check: (_result, prepared) => {
      expect(prepared.target!.requests[0]!.headers.authorization).toBeUndefined();
    },
  },
  {
    fault: '307 to the same origin (control)',
    server: '307 Location: another path on the same origin',
    sdk: 'follows it with the Authorization header (proves the check above can see it)',
    prepare: ({ main }) => {
      const target = main.scenario(ok);
      const source = main.scenario(redirect(307, `${target.base}/subjects`));
      return { base: source.base, scenarios: [source, target], target };
    },
    outcome: 'success',
    sent: 1,
    seen: 2,
    maxMs: 1_500,
    check: (_result, prepared) => {
      expect(prepared.target!.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    },
  },
  {
    fault: 'redirect loop',
    server: '302 Location: itself, every time',
    sdk: 'fetch gives up after 20 redirects; retried like a connection failure',
    prepare: ({ main }) => {
      const scenario: Scenario = main.scenario((req, res, attempt) =>
        redirect(302, `${scenario.base}/subjects`)(req, res, attempt),
      );
      return { base: scenario.base, scenarios: [scenario] };
    },
    outcome: 'ConnectionError',
    sent: 3,
    seen: 63,
    minMs: 1_100,
    maxMs: 5_000,
  },
  {
    fault: 'nothing listening',
    server: 'connection refused (a closed port on 127.0.0.1)',
    sdk: 'retried with backoff like a reset',
    prepare: async () => ({ base: await closedPort(), scenarios: [] }),
    outcome: 'ConnectionError',
    sent: 3,
    seen: 0,
    minMs: 1_100,
    maxMs: 4_000,
  },
];

/** The kinds of call load.test.ts mixes, each with the server's answers and what the call must end in. */
import { expect } from 'vitest';
import type { MetricClient } from '../../src/index.js';
import {
  dribble,
  type Handler,
  htmlPage,
  json,
  never,
  resetBeforeResponse,
  subjects,
  truncatedJson,
} from './fault-server.js';

type Options = { signal: AbortSignal; headers: Record<string, string> };
export interface Kind {
  readonly name: string;
  /** Attempt by attempt; the last one repeats. */
  readonly handlers: Handler[];
  readonly call: (client: MetricClient, options: Options) => Promise<unknown>;
  readonly outcome: string;
  /** Requests the server must see for one call (either of two, when the call may end before sending). */
  readonly attempts: number | readonly [number, number];
  /** It cannot settle before a timer fires: an attempt's timeout, a backoff, or the caller's own. */
  readonly endsOnATimer?: boolean;
}

const paper = (id: number) => ({ id, title: `Paper ${id}`, authors: 'A. Author', year: 2020, citations: id });
const pagedGrowingTotal: Handler = (req, res, attempt) => {
  const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
  json({ data: [paper(page * 10), paper(page * 10 + 1)], total: 4 + page })(req, res, attempt);
};
const list = (client: MetricClient, options: Options) => client.subjects.list(options);
const retryAt0 = (status: number) => json({ message: 'busy' }, status, { 'retry-after': '0' });

export const kinds: Kind[] = [
  { name: 'healthy', handlers: [json(subjects)], call: list, outcome: 'success', attempts: 1 },
  {
    name: '503 twice, then healthy',
    handlers: [retryAt0(503), retryAt0(503), json(subjects)],
    call: list,
    outcome: 'success',
    attempts: 3,
    endsOnATimer: true,
  },
  {
    name: 'reset, then healthy',
    handlers: [resetBeforeResponse(), json(subjects)],
    call: list,
    outcome: 'success',
    attempts: 2,
    endsOnATimer: true,
  },
  {
    name: '429 storm (Retry-After 0)',
    handlers: [retryAt0(429)],
    call: list,
    outcome: 'RateLimitError',
    attempts: 3,
    endsOnATimer: true,
  },
  {
    name: '429 far future',
    handlers: [json({}, 429, { 'retry-after': '3600' })],
    call: list,
    outcome: 'RateLimitError',
    attempts: 1,
  },
  {
    name: 'HTML 502',
    handlers: [htmlPage(502, 'Bad Gateway')],
    call: (client, options) => client.subjects.list({ ...options, maxRetries: 0 }),
    outcome: 'InternalServerError',
    attempts: 1,
  },
  {
    name: 'wrong types',
    handlers: [json([{ ...subjects[0], id: 'one' }])],
    call: list,
    outcome: 'ResponseValidationError',
    attempts: 1,
  },
  {
    name: 'never answering',
    handlers: [never()],
    call: (client, options) => client.subjects.list({ ...options, timeout: 1_500, maxRetries: 0 }),
    outcome: 'TimeoutError',
    // Under load the timeout (1.5 s) may strike before the server has read the request.
    attempts: [0, 1],
    endsOnATimer: true,
  },
  {
    name: 'dribbled past the timeout',
    handlers: [dribble(subjects, 1, 50)],
    call: (client, options) => client.subjects.list({ ...options, timeout: 1_500, maxRetries: 0 }),
    outcome: 'TimeoutError',
    // Under load the timeout (1.5 s) may strike before the server has read the request.
    attempts: [0, 1],
    endsOnATimer: true,
  },
  {
    name: 'truncated, Content-Length promising more',
    handlers: [truncatedJson('full-length')],
    call: (client, options) => client.subjects.list({ ...options, maxRetries: 0 }),
    outcome: 'ConnectionError',
    attempts: 1,
  },
  {
    name: 'aborted by the caller',
    handlers: [never()],
    call: (client, options) => {
      const own = new AbortController();
      setTimeout(() => own.abort(), 100);
      return client.subjects.list({ ...options, signal: AbortSignal.any([options.signal, own.signal]) });
    },
    outcome: 'RequestAbortedError',
    // Under load the abort (at 100 ms) may come before the request is even written.
    attempts: [0, 1],
    endsOnATimer: true,
  },
  {
    name: 'walk over a total that grows',
    handlers: [pagedGrowingTotal],
    call: async (client, options) => {
      const ids: number[] = [];
      for await (const item of client.journals.papers(1, { per_page: 2 }, options)) ids.push(item.id);
      expect(ids).toEqual([10, 11, 20, 21, 30, 31]);
    },
    outcome: 'success',
    attempts: 3,
  },
];

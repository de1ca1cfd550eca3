/**
 * The heap check, run by load.test.ts in a child process:
 *   node --expose-gc --import tsx test/reliability/heap-check.mjs [requests] [warm-up requests]
 *
 * One client, one long-lived AbortSignal shared by every call, calls over mixed faults 100 at a time.
 * The 429s go through a second long-lived client: a retried 429 holds every request of its client
 * for the backoff, and would otherwise set the pace of the whole run. It measures heap, timers and the shared signal's abort listeners after a warm-up and again after
 * the server has seen `requests` (default 10,000) more, and prints one JSON line. The fault server keeps counts only (no request log), so the
 * harness itself does not grow.
 */
import { getEventListeners } from 'node:events';
import { MetricClient } from '../../src/index.ts';
import { TEST_KEY } from '../helpers/test-key.ts';
import { htmlPage, json, never, resetBeforeResponse, startFaultServer, subjects } from './fault-server.ts';

/** Requests the server must see after the warm-up, and during it. */
const requestTarget = Number(process.argv[2] ?? 10_000);
const warmUpTarget = Number(process.argv[3] ?? 1_000);
const concurrency = 100;

if (typeof globalThis.gc !== 'function') {
  console.error('run with --expose-gc');
  process.exit(2);
}

const warnings = [];
const unhandled = [];
process.on('warning', (warning) => warnings.push(`${warning.name}: ${warning.message}`));
process.on('unhandledRejection', (reason) => unhandled.push(String(reason)));

const paper = (id) => ({ id, title: `Paper ${id}`, authors: 'A. Author', year: 2020, citations: id });
const ok = json(subjects);
const retryAt0 = (status) => json({ message: 'busy' }, status, { 'retry-after': '0' });
const pages = (req, res, attempt) => {
  const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
  json({ data: [paper(page * 10), paper(page * 10 + 1)], total: 6 })(req, res, attempt);
};

const list = (client, options) => client.subjects.list(options);
/**
 * Each kind: what the server does, attempt by attempt, how the call is made, what it must end in, and
 * how many of each turn of the cycle it takes (1 unless said).
 */
const allKinds = [
  { name: 'healthy', handlers: [ok], call: list, outcome: 'success', weight: 12 },
  { name: '503 then healthy', handlers: [retryAt0(503), ok], call: list, outcome: 'success', weight: 2 },
  {
    name: '429 then healthy',
    handlers: [retryAt0(429), ok],
    call: list,
    outcome: 'success',
    weight: 2,
    ownClient: true,
  },
  {
    name: '429 far future',
    handlers: [json({}, 429, { 'retry-after': '3600' })],
    call: list,
    outcome: 'RateLimitError',
  },
  {
    name: 'wrong types',
    handlers: [json([{ ...subjects[0], id: '1' }])],
    call: list,
    outcome: 'ResponseValidationError',
    weight: 2,
  },
  {
    name: 'HTML 502',
    handlers: [htmlPage(502, 'Bad Gateway')],
    call: (client, options) => client.subjects.list({ ...options, maxRetries: 0 }),
    outcome: 'InternalServerError',
  },
  {
    name: 'reset',
    handlers: [resetBeforeResponse()],
    call: (client, options) => client.subjects.list({ ...options, maxRetries: 0 }),
    outcome: 'ConnectionError',
  },
  {
    name: 'never answering',
    handlers: [never()],
    call: (client, options) => client.subjects.list({ ...options, timeout: 20, maxRetries: 0 }),
    outcome: 'TimeoutError',
  },
  {
    name: 'aborted by the caller',
    handlers: [never()],
    call: (client, options) => {
      const own = new AbortController();
      setTimeout(() => own.abort(), 5);
      return client.subjects.list({ ...options, signal: AbortSignal.any([options.signal, own.signal]) });
    },
    outcome: 'RequestAbortedError',
  },
  {
    name: 'walk of 3 pages',
    handlers: [pages],
    call: async (client, options) => {
      let n = 0;
      for await (const _ of client.journals.papers(1, { per_page: 2 }, options)) n++;
      if (n !== 6) throw new Error(`walked ${n} items`);
    },
    outcome: 'success',
  },
  {
    name: 'walk left after one item',
    handlers: [pages],
    call: async (client, options) => {
      for await (const _ of client.journals.papers(1, { per_page: 2 }, { ...options, prefetch: 4 })) break;
    },
    outcome: 'success',
  },
];
/** The calls in one turn of the cycle: cheap ones often, the ones that cost a new connection less. */
const cycle = allKinds.flatMap((kind) => Array.from({ length: kind.weight ?? 1 }, () => kind));
const byName = new Map(allKinds.map((kind) => [kind.name, kind]));

const server = await startFaultServer({ record: false });
/** Attempts per call in flight; an entry is removed when its call settles. */
const attempts = new Map();
const scenario = server.scenario((req, res) => {
  const kind = byName.get(String(req.headers['x-kind']));
  if (kind.handlers.length === 1) return kind.handlers[0](req, res, 1);
  // Only calls answered in turn are tracked; they always reach the server before they settle.
  const id = String(req.headers['x-call']);
  const n = (attempts.get(id) ?? 0) + 1;
  attempts.set(id, n);
  kind.handlers[Math.min(n - 1, kind.handlers.length - 1)](req, res, n);
});
const options = { apiKey: TEST_KEY, baseUrl: scenario.base, maxRetries: 1 };
const client = new MetricClient(options);
const rateLimited = new MetricClient(options);
const shared = new AbortController();
const wrong = [];
const outcomes = {};

async function one(i) {
  const kind = cycle[i % cycle.length];
  const options = { signal: shared.signal, headers: { 'x-call': String(i), 'x-kind': kind.name } };
  let outcome = 'success';
  try {
    await kind.call(kind.ownClient ? rateLimited : client, options);
  } catch (error) {
    outcome = error?.name ?? String(error);
  } finally {
    attempts.delete(String(i));
  }
  outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  if (outcome !== kind.outcome && wrong.length < 20) wrong.push(`${kind.name}: ${outcome}`);
}

let nextCall = 0;
/** Calls, 100 at a time, until the server has seen `target` more requests; resolves to the calls made. */
async function run(target) {
  const start = scenario.attempts;
  const first = nextCall;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (scenario.attempts - start < target) await one(nextCall++);
    }),
  );
  return { calls: nextCall - first, requests: scenario.attempts - start };
}

async function measure() {
  await new Promise((resolve) => setTimeout(resolve, 100));
  for (let i = 0; i < 4; i++) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const resources = process.getActiveResourcesInfo();
  return {
    heapUsed: process.memoryUsage().heapUsed,
    timers: resources.filter((name) => name === 'Timeout').length,
    abortListeners: getEventListeners(shared.signal, 'abort').length,
  };
}

const baseline = await measure();
const warmUp = await run(warmUpTarget);
const afterWarmUp = await measure();
const started = performance.now();
const { calls, requests } = await run(requestTarget);
const ms = performance.now() - started;
const after = await measure();
await server.close();

console.log(
  JSON.stringify({
    node: process.version,
    calls,
    requests,
    ms: Math.round(ms),
    warmUp,
    baseline,
    afterWarmUp,
    after,
    outcomes,
    wrong,
    warnings,
    unhandled,
    inFlight: attempts.size,
  }),
);

/**
 * What a user on the oldest Node the `engines` field takes (22.0.0) gets from the built package, run by
 * `npm run test:node22` with that Node: every entry loads; the client lists, pages, looks up several DOIs
 * and keeps answers in its cache against the mock; a webhook is received, relayed and applied; and the
 * command line writes csv and Parquet (Snappy: Node's zstd came in 22.15) and refuses SQLite, which
 * node:sqlite has only from 22.13, with a usage error (exit 2) naming the Node that has it.
 * First, before anything else has run: a call retried after a 503, and one after a 429, settle on a
 * fake clock moved with promise jobs alone between its steps, as in a user's fake-timer test. On this
 * Node an `import()` waits on real I/O, which a fake clock does not wait for: nothing on the retry
 * path may be a module loaded on first use.
 * Prints `ok` and exits 0, or throws.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dist = new URL('../../dist/', import.meta.url);
const { MetricClient, NotFoundError } = await import(new URL('index.js', dist).href);
const { MOCK_API_KEY, startMockServer } = await import(new URL('testing.js', dist).href);
const { createEventRelay, createWebhookHandler, parseWebhookEvent } = await import(
  new URL('webhooks.js', dist).href
);
const { metricQueries } = await import(new URL('query.js', dist).href);

/**
 * `setTimeout`, `clearTimeout` and `Date.now` on a clock moved by hand (Node 22.0.0's own MockTimers
 * throws on the SDK's timers): what a user's fake-timer library does to the SDK.
 */
function fakeTimeouts() {
  const real = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout, now: Date.now };
  const due = new Map();
  const start = Date.now();
  let [now, next] = [0, 1];
  Date.now = () => start + now;
  globalThis.setTimeout = (run, ms = 0, ...args) => {
    const id = next++;
    due.set(id, { at: now + Math.max(0, Number(ms) || 0), run: () => run(...args) });
    const self = () => timer;
    const timer = {
      id,
      unref: self,
      ref: self,
      refresh: self,
      hasRef: () => true,
      [Symbol.toPrimitive]: () => id,
    };
    return timer;
  };
  globalThis.clearTimeout = (timer) => due.delete(typeof timer === 'object' ? timer?.id : timer);
  return {
    tick(ms) {
      now += ms;
      for (let first = earliest(); first !== undefined && first[1].at <= now; first = earliest()) {
        due.delete(first[0]);
        first[1].run();
      }
    },
    restore() {
      Object.assign(globalThis, { setTimeout: real.setTimeout, clearTimeout: real.clearTimeout });
      Date.now = real.now;
    },
  };
  function earliest() {
    return [...due].sort((a, b) => a[1].at - b[1].at)[0];
  }
}

/** What a call retried once after `status` settled to, the fake clock moved 100 ms at a time. */
async function retriedOnFakeClock(clock, status) {
  const body = (value, init = {}) => new Response(JSON.stringify(value), init);
  let sent = 0;
  const fetch = async () =>
    ++sent === 1 ? body({ message: 'busy' }, { status, headers: { 'retry-after': '1' } }) : body([]);
  const client = new MetricClient({
    apiKey: 'sk_oldest_node',
    baseUrl: 'https://api.example.test/api/v1',
    fetch,
  });
  let outcome = 'unsettled';
  client.subjects.list().then(
    () => (outcome = 'answered'),
    (error) => (outcome = `${error.name}: ${error.message}`),
  );
  for (let step = 0; step < 100 && outcome === 'unsettled'; step++) {
    clock.tick(100);
    for (let job = 0; job < 1_000; job++) await Promise.resolve();
  }
  return `${outcome} after ${sent} requests`;
}
const clock = fakeTimeouts();
try {
  for (const status of [503, 429])
    assert.equal(await retriedOnFakeClock(clock, status), 'answered after 2 requests', `after a ${status}`);
} finally {
  clock.restore();
}

const server = await startMockServer();
const folder = mkdtempSync(join(tmpdir(), 'scholarly-oldest-node-'));
try {
  const client = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: server.url, cache: true });
  const journals = await client.journals.list();
  assert.ok(journals.length > 0);
  const papers = await client.papers.search({ q: 'a', per_page: 20 }).toArray({ limit: 50 });
  assert.equal(papers.length, 50);
  const results = await client.papers.getMany(['10.9999/none', 'not a doi']);
  assert.deepEqual(
    results.map((result) => result.error?.name),
    ['NotFoundError', 'InvalidParameterError'],
  );
  await assert.rejects(client.journals.get(999_999), NotFoundError);
  assert.equal((await client.journals.get(journals[0].id).withResponse()).cacheStatus, 'miss');
  assert.equal((await client.journals.get(journals[0].id).withResponse()).cacheStatus, 'hit');

  const { event } = await server.api.updateScore(journals[0].id, journals[0].metric_score + 1);
  const received = [];
  const handler = createWebhookHandler((parsed) => received.push(parsed.journal_id), { cache: client.cache });
  const answer = await handler(
    new Request('http://localhost/hook', { method: 'POST', body: JSON.stringify(event) }),
  );
  assert.equal(answer.status, 200);
  assert.deepEqual(received, [journals[0].id]);
  assert.equal((await client.journals.get(journals[0].id).withResponse()).cacheStatus, 'miss');
  const relay = createEventRelay();
  assert.equal(relay.publish(parseWebhookEvent(JSON.stringify(event))), 0);
  relay.close();
  assert.equal(typeof metricQueries(client).journals.get(1).queryFn, 'function');

  const cli = (...args) =>
    spawnSync(process.execPath, [new URL('cli.js', dist).pathname, '--mock', '--quiet', ...args], {
      encoding: 'utf8',
    });
  const csv = cli('journals', 'list', '--format', 'csv');
  assert.equal(csv.status, 0, csv.stderr);
  assert.match(csv.stdout, /^id,name,issn,/);
  const parquet = join(folder, 'papers.parquet');
  const written = cli('papers', 'search', '--q', 'a', '--limit', '30', '-o', parquet);
  assert.equal(written.status, 0, written.stderr);
  assert.equal(readFileSync(parquet).subarray(0, 4).toString(), 'PAR1');
  const sqlite = cli('journals', 'list', '-o', join(folder, 'metrics.sqlite'));
  assert.equal(sqlite.status, 2);
  assert.match(sqlite.stderr, /node:sqlite, which Node 22\.13 and later have \(this is Node 22\.0\.0\)/);
  console.log('ok');
} finally {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
}

/**
 * Load: 500 concurrent calls over mixed faults, from one client with one shared AbortSignal, all
 * settle as they must, with no unhandled rejection, no MaxListenersExceededWarning and no abort
 * listener or timer left behind. Then the heap check: 5,000 requests in a child process run with
 * --expose-gc (heap-check.mjs), heap compared after a warm-up and at the end.
 */
import { getEventListeners } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MetricClient } from '../../src/index.js';
import { runWithGc } from '../helpers/child.js';
import { testClient } from '../support.js';
import { hangFactor, reportFigures, type Settled, settle, useFaultServers, worstCaseMs } from './harness.js';
import { kinds } from './load-kinds.js';

const servers = useFaultServers();
const figures: Array<Record<string, unknown>> = [];
reportFigures('load', () => figures);

/**
 * The hang guard each of the 500 calls is held to; not a speed claim. The slowest kinds by the
 * policy: two retries after their longest backoff, or one attempt run to its 1.5 s timeout.
 */
const hangGuardMs =
  hangFactor * Math.max(worstCaseMs({ retries: 2 }), worstCaseMs({ retries: 0, timeoutMs: 1_500 }));
// Above the guard, so that a hang fails with the guard's message rather than vitest's.
vi.setConfig({ testTimeout: hangGuardMs + 30_000 });

/** One scenario for every call: the kind and the call's id travel in headers; one client sends all. */
function loadScenario() {
  const attempts = new Map<string, number>();
  const byName = new Map(kinds.map((kind) => [kind.name, kind]));
  const scenario = servers.scenario((req, res) => {
    const id = String(req.headers['x-call']);
    const n = (attempts.get(id) ?? 0) + 1;
    attempts.set(id, n);
    const kind = byName.get(String(req.headers['x-kind']))!;
    kind.handlers[Math.min(n - 1, kind.handlers.length - 1)]!(req, res, n);
  });
  return { scenario, attempts };
}

/** Unhandled rejections and process warnings while a test runs. */
const observed = { unhandled: [] as unknown[], warnings: [] as Error[] };
const onUnhandled = (reason: unknown) => observed.unhandled.push(reason);
const onWarning = (warning: Error) => observed.warnings.push(warning);
beforeEach(() => {
  observed.unhandled = [];
  observed.warnings = [];
  process.on('unhandledRejection', onUnhandled);
  process.on('warning', onWarning);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  process.off('warning', onWarning);
});

const timers = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
// Taken before the abort test fakes the timers: the pauses of the test itself run on the real clock.
const realSetTimeout = globalThis.setTimeout;
const pause = (ms: number) => new Promise((resolve) => realSetTimeout(resolve, ms));
const calm = () => pause(200);

/**
 * Starts the 500 calls, each held to the hang guard counted from the last call that settled (they
 * share one event loop with the server: on a loaded machine each waits for the others' work);
 * each resolves with how and when it settled.
 */
function launch(client: MetricClient, signal: AbortSignal) {
  let lastSettled = performance.now();
  const guard = { ms: hangGuardMs, lastProgress: () => lastSettled };
  return Array.from({ length: 500 }, (_, i) => {
    const kind = kinds[i % kinds.length]!;
    const options = { signal, headers: { 'x-call': String(i), 'x-kind': kind.name } };
    return settle(() => kind.call(client, options), guard).then((result) => {
      lastSettled = performance.now();
      return { i, kind, result, at: lastSettled };
    });
  });
}

const outcomeOf = (result: Settled<unknown>) =>
  result.ok ? 'success' : ((result.error as Error).name ?? String(result.error));
const warned = () => observed.warnings.filter((w) => w.name === 'MaxListenersExceededWarning').length;

describe('500 concurrent calls over mixed faults', () => {
  it('all settle as they must, leaving no listener, timer, rejection or warning', async () => {
    const { scenario, attempts } = loadScenario();
    const client = testClient({}, scenario);
    const shared = new AbortController();
    const timersBefore = timers();
    const started = performance.now();
    const results = await Promise.all(launch(client, shared.signal));
    const elapsed = performance.now() - started;
    await calm();

    const wrong = results
      .map(({ i, kind, result }) => {
        const outcome = outcomeOf(result);
        const seen = attempts.get(String(i)) ?? 0;
        const expected = typeof kind.attempts === 'number' ? [kind.attempts] : kind.attempts;
        return outcome === kind.outcome && expected.includes(seen)
          ? undefined
          : `${kind.name}: ${outcome} after ${seen} attempts (${result.ok ? '' : String(result.error)})`;
      })
      .filter(Boolean);
    expect(wrong).toEqual([]);
    expect(observed.unhandled).toEqual([]);
    expect(observed.warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
    expect(timers()).toBeLessThanOrEqual(timersBefore);

    const slowest = Math.max(...results.map(({ result }) => result.ms));
    figures.push({
      check: '500 concurrent calls, 12 kinds of fault',
      requests: scenario.attempts,
      'all settled (ms)': Math.round(elapsed),
      'slowest call (ms)': Math.round(slowest),
      'unhandled rejections': observed.unhandled.length,
      'MaxListeners warnings': warned(),
    });
  });

  it('aborting the shared signal mid-flight ends every call still running, without waiting for any timer', async () => {
    // Every timer the calls set (attempt timeouts, backoffs, the caller's own abort) is fake and the
    // clock never moves: a call still running at the abort can only settle because the abort ends it.
    // One that waited for a timer instead would never settle, and the hang guard would say so.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { scenario } = loadScenario();
      const client = testClient({}, scenario);
      const shared = new AbortController();
      const running = launch(client, shared.signal);
      await pause(150);
      const abortedAt = performance.now();
      shared.abort(new Error('shutting down'));
      const results = await Promise.all(running);
      const settledAfterAbort = Math.max(...results.map(({ at }) => at)) - abortedAt;
      await calm();

      // Whatever had not settled before the abort is a RequestAbortedError now; the kinds that need
      // a timer to end had certainly not.
      const late = results.filter(({ at }) => at >= abortedAt);
      for (const { kind, result } of results.filter(({ kind }) => kind.endsOnATimer)) {
        expect({ kind: kind.name, late: late.some((r) => r.result === result) }).toEqual({
          kind: kind.name,
          late: true,
        });
      }
      for (const { kind, result } of late) {
        expect({ kind: kind.name, outcome: outcomeOf(result) }).toEqual({
          kind: kind.name,
          outcome: 'RequestAbortedError',
        });
      }
      expect(observed.unhandled).toEqual([]);
      expect(observed.warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
      expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
      figures.push({
        check: '500 concurrent calls, shared signal aborted at 150 ms',
        requests: scenario.attempts,
        'all settled (ms)': `${Math.round(settledAfterAbort)} after the abort (${late.length} aborted)`,
        'unhandled rejections': observed.unhandled.length,
        'MaxListeners warnings': warned(),
      });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('heap', () => {
  it('5,000 requests over mixed faults: heap, timers and abort listeners back to where they were', async () => {
    const script = fileURLToPath(new URL('./heap-check.mjs', import.meta.url));
    // A warm-up half the size of the run measured: under a loaded machine, what the warm-up leaves
    // unsettled (JIT code, pooled sockets) must not be counted as the run's growth.
    const { code, stdout, stderr } = await runWithGc(script, ['5000', '2500']);
    expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(stdout.trim().split('\n').at(-1)!);

    expect(report.wrong).toEqual([]);
    expect(report.unhandled).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(report.requests).toBeGreaterThanOrEqual(5_000);
    expect(report.inFlight).toBe(0);
    const growth = report.after.heapUsed - report.afterWarmUp.heapUsed;
    // 800 bytes a request: a response or a closure kept per call is more than that; a run's own
    // noise is under 1 MB.
    expect(growth).toBeLessThan(4 * 1024 * 1024);
    expect(report.after.timers).toBeLessThanOrEqual(report.afterWarmUp.timers);
    expect(report.after.timers).toBeLessThanOrEqual(report.baseline.timers);
    expect(report.after.abortListeners).toBe(0);

    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    figures.push({
      check: `heap: ${report.requests} requests (${report.calls} calls) after ${report.warmUp.requests} of warm-up`,
      requests: report.requests,
      'heap before (MB)': mb(report.afterWarmUp.heapUsed),
      'heap after (MB)': mb(report.after.heapUsed),
      'growth (MB)': mb(growth),
      timers: `${report.afterWarmUp.timers} → ${report.after.timers}`,
      'abort listeners': `${report.afterWarmUp.abortListeners} → ${report.after.abortListeners}`,
      'all settled (ms)': report.ms,
      node: report.node,
    });
  }, 180_000);
});

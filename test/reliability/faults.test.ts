/**
 * Fault by fault, over a real HTTP server on 127.0.0.1: the exact error class (or success), the
 * attempts the SDK sent and the servers saw, the waits that must have happened, and that the call
 * settles at all (a hang guard, never a speed claim).
 *
 * The cases live in catalogue.ts (secrets.test.ts runs them again, looking for the key). They run
 * concurrently: each has its own scenario, hence its own base URL and its own attempt count. The
 * faults that only the client's timeout ends run afterwards, one at a time, on a fake clock.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { backoff } from '../../src/core/retry.js';
import * as sdk from '../../src/index.js';
import { useFakeClock } from '../helpers/fake-clock.js';
import { testClient } from '../support.js';
import {
  catalogue,
  catalogueTestTimeoutMs,
  type FaultCase,
  hangGuardMs,
  type Prepared,
} from './catalogue.js';
import { outcomeName, reportFigures, type Settled, settle, until, useFaultServers } from './harness.js';

const servers = useFaultServers();
const figures: Array<Record<string, unknown>> = [];

reportFigures('faults', () =>
  catalogue.flatMap((entry) => figures.filter((row) => row.fault === entry.fault)),
);

const title = (entry: FaultCase) =>
  `${entry.fault} → ${entry.outcome}, ${entry.sent} sent / ${entry.seen} seen`;

/** Starts the entry's call with a fetch that counts what was sent and what was answered. */
async function start(entry: FaultCase) {
  const prepared = await entry.prepare(servers);
  const counts = { sent: 0, answered: 0, settled: false };
  const client = testClient(
    {
      ...entry.options,
      fetch: async (input, init) => {
        counts.sent++;
        const response = await globalThis.fetch(input, init);
        counts.answered++;
        return response;
      },
    },
    prepared,
  );
  const seen = () => prepared.scenarios.reduce((sum, scenario) => sum + scenario.attempts, 0);
  const result = settle(() => client.subjects.list(), hangGuardMs).then((settled) => {
    counts.settled = true;
    return settled;
  });
  return { prepared, counts, seen, result };
}

function verify(
  entry: FaultCase,
  result: Settled<unknown>,
  counts: { sent: number; answered: number },
  seen: number,
  prepared: Prepared,
) {
  if (result.error instanceof Error && result.error.name === 'HangError') throw result.error;
  if (entry.outcome === 'success') {
    expect(result.error).toBeUndefined();
  } else {
    // The exact class, not a subclass or a parent: TimeoutError is a ConnectionError, and they differ here.
    const expected = (sdk as unknown as Record<string, new (...args: never[]) => Error>)[entry.outcome]!;
    expect(result.error).toBeInstanceOf(sdk.MetricError);
    expect(Object.getPrototypeOf(result.error)).toBe(expected.prototype);
    expect((result.error as Error).name).toBe(entry.outcome);
  }
  expect({ sent: counts.sent, seen }).toEqual({ sent: entry.sent, seen: entry.seen });
  if (entry.answered !== undefined) expect(counts.answered).toBe(entry.answered);
  entry.check?.(result, prepared);
}

describe.concurrent('each fault: outcome, attempts, and the waits that must happen', () => {
  for (const entry of catalogue.filter((e) => e.timeoutStrikes === undefined)) {
    it(title(entry), { timeout: catalogueTestTimeoutMs }, async () => {
      const { prepared, counts, seen, result: pending } = await start(entry);
      const result = await pending;
      figures.push({
        fault: entry.fault,
        outcome: outcomeName(result),
        sent: counts.sent,
        seen: seen(),
        'settled (ms)': Math.round(result.ms),
      });
      verify(entry, result, counts, seen(), prepared);
      if (entry.minMs !== undefined) expect(result.ms).toBeGreaterThanOrEqual(entry.minMs);
    });
  }
});

/** A few turns of the event loop, for anything a timer set off to show itself. */
async function turns() {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('faults only the timeout ends: the clock moves once each attempt is where the timeout must strike', () => {
  // setTimeout alone (the server's setInterval, setImmediate and the sockets stay real); p-retry's
  // jitter at its least, so each backoff is exactly its base.
  beforeEach(() => useFakeClock({ date: false }));

  for (const entry of catalogue.filter((e) => e.timeoutStrikes !== undefined)) {
    it(title(entry), { timeout: catalogueTestTimeoutMs }, async () => {
      const { prepared, counts, seen, result: pending } = await start(entry);
      const timeout = entry.options!.timeout!;
      const attempts = entry.options!.maxRetries! + 1;
      const guardEnds = performance.now() + hangGuardMs;
      const reached = (attempt: number) =>
        entry.timeoutStrikes === 'during the body' ? counts.answered >= attempt : seen() >= attempt;
      let clock = 0;
      for (let attempt = 1; attempt <= attempts; attempt++) {
        await until(
          () => reached(attempt) || counts.settled,
          `attempt ${attempt} ${entry.timeoutStrikes}`,
          guardEnds - performance.now(),
        );
        expect({ attempt, reached: reached(attempt), settled: counts.settled }).toEqual({
          attempt,
          reached: true,
          settled: false,
        });
        // Not a millisecond early...
        await vi.advanceTimersByTimeAsync(timeout - 1);
        await turns();
        expect({ attempt, sent: counts.sent, settled: counts.settled }).toEqual({
          attempt,
          sent: attempt,
          settled: false,
        });
        // ...and then it strikes.
        await vi.advanceTimersByTimeAsync(1);
        clock += timeout;
        if (attempt === attempts) break;
        const wait = backoff.minTimeout * backoff.factor ** (attempt - 1);
        await vi.advanceTimersByTimeAsync(wait - 1);
        await turns();
        expect({ attempt, sent: counts.sent }).toEqual({ attempt, sent: attempt });
        await vi.advanceTimersByTimeAsync(1);
        clock += wait;
      }
      const result = await pending;
      figures.push({
        fault: entry.fault,
        outcome: outcomeName(result),
        sent: counts.sent,
        seen: seen(),
        'settled (ms)': `${clock} on the fake clock`,
      });
      verify(entry, result, counts, seen(), prepared);
      expect(clock).toBe(entry.minMs);
    });
  }
});

it('no request reached a path outside its scenario', () => {
  expect(servers.main.strays).toEqual([]);
  expect(servers.other.strays).toEqual([]);
});

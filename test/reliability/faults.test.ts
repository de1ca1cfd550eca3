/**
 * Fault by fault, over a real HTTP server on 127.0.0.1: the exact error class (or success), the
 * attempts the SDK sent and the servers saw, and that the call settles within a bound.
 *
 * The cases live in catalogue.ts (secrets.test.ts runs them again, looking for the key). They run
 * concurrently: each has its own scenario, hence its own base URL and its own attempt count.
 */
import { describe, expect, it } from 'vitest';
import * as sdk from '../../src/index.js';
import { catalogue } from './catalogue.js';
import { clientFor, outcomeName, reportFigures, settle, useFaultServers } from './harness.js';

const servers = useFaultServers();
const figures: Array<Record<string, unknown>> = [];

reportFigures('faults', () =>
  catalogue.flatMap((entry) => figures.filter((row) => row.fault === entry.fault)),
);

describe.concurrent('each fault: outcome, attempts, time to settle', () => {
  for (const entry of catalogue) {
    it(`${entry.fault} → ${entry.outcome}, ${entry.sent} sent / ${entry.seen} seen`, async () => {
      const prepared = await entry.prepare(servers);
      let sent = 0;
      let answered = 0;
      const client = clientFor(prepared, {
        ...entry.options,
        fetch: async (input, init) => {
          sent++;
          const response = await globalThis.fetch(input, init);
          answered++;
          return response;
        },
      });
      const result = await settle(() => client.subjects.list());
      const seen = prepared.scenarios.reduce((sum, scenario) => sum + scenario.attempts, 0);
      figures.push({
        fault: entry.fault,
        outcome: outcomeName(result),
        sent,
        seen,
        'settled (ms)': Math.round(result.ms),
      });

      if (entry.outcome === 'success') {
        expect(result.error).toBeUndefined();
      } else {
        // The exact class, not a subclass or a parent: TimeoutError is a ConnectionError, and they differ here.
        const expected = (sdk as unknown as Record<string, new (...args: never[]) => Error>)[entry.outcome]!;
        expect(result.error).toBeInstanceOf(sdk.MetricError);
        expect(Object.getPrototypeOf(result.error)).toBe(expected.prototype);
        expect((result.error as Error).name).toBe(entry.outcome);
      }
      expect({ sent, seen }).toEqual({ sent: entry.sent, seen: entry.seen });
      expect(result.ms).toBeLessThan(entry.maxMs);
      if (entry.answered !== undefined) expect(answered).toBe(entry.answered);
      if (entry.minMs !== undefined) expect(result.ms).toBeGreaterThanOrEqual(entry.minMs);
      entry.check?.(result, prepared);
    });
  }
});

it('no request reached a path outside its scenario', () => {
  expect(servers.main.strays).toEqual([]);
  expect(servers.other.strays).toEqual([]);
});

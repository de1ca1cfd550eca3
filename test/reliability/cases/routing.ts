/** Faults of where the request goes: redirects, and no server at all. */
import { expect } from 'vitest';
import { TEST_KEY } from '../../support.js';
import { redirect, type Scenario } from '../fault-server.js';
import type { Settled } from '../harness.js';
import { closedPort, crossOriginRedirect, type FaultCase, names, ok } from './shared.js';

/** The refusal names both origins, and nothing reached the other one. */
function refusedRedirect(result: Settled<unknown>, prepared: { target?: Scenario | undefined }) {
  expect((result.error as Error).message).toMatch(
    /redirect from http:\/\/127\.0\.0\.1:\d+ to another origin/,
  );
  expect(prepared.target!.attempts).toBe(0);
}

export const routingFaults: readonly FaultCase[] = [
  {
    fault: '302 to another origin',
    server: '302 Location: the same path on another port (another origin)',
    sdk: 'refuses it with a MetricError naming both origins, not retried: no header reaches the other origin',
    prepare: crossOriginRedirect(302),
    outcome: 'MetricError',
    sent: 1,
    seen: 1,
    check: refusedRedirect,
  },
  {
    fault: '307 to another origin',
    server: '307 Location: the same path on another port (another origin)',
    sdk: 'refuses it with a MetricError naming both origins, not retried: no header reaches the other origin',
    prepare: crossOriginRedirect(307),
    outcome: 'MetricError',
    sent: 1,
    seen: 1,
    check: refusedRedirect,
  },
  {
    fault: '307 to the same origin (control)',
    server: '307 Location: another path on the same origin',
    sdk: 'follows it, with the Authorization header, under the same attempt (proves the check above can see it)',
    prepare: ({ main }) => {
      const target = main.scenario(ok);
      const source = main.scenario(redirect(307, `${target.base}/subjects`));
      return { base: source.base, scenarios: [source, target], target };
    },
    outcome: 'success',
    sent: 2,
    seen: 2,
    check: (_result, prepared) => {
      expect(prepared.target!.requests[0]!.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    },
  },
  {
    fault: 'redirect loop',
    server: '302 Location: itself, every time',
    sdk: 'gives up after 20 redirects with a MetricError, not retried',
    prepare: ({ main }) => {
      const scenario: Scenario = main.scenario((req, res, attempt) =>
        redirect(302, `${scenario.base}/subjects`)(req, res, attempt),
      );
      return { base: scenario.base, scenarios: [scenario] };
    },
    outcome: 'MetricError',
    sent: 21,
    seen: 21,
    check: (result) => expect((result.error as Error).message).toMatch(/after 20 redirects/),
  },
  {
    fault: 'nothing listening',
    server: 'connection refused (a closed port on 127.0.0.1)',
    sdk: 'retried after backoff (0.5–1 s, then 1–2 s) like a reset',
    prepare: async () => ({ base: await closedPort(), scenarios: [] }),
    outcome: 'ConnectionError',
    sent: 3,
    seen: 0,
    minMs: 1_450,
    check: names(/ECONNREFUSED/),
  },
];

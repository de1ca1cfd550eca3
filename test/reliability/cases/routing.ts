/** Faults of where the request goes: redirects, and no server at all. */
import { expect } from 'vitest';
import { redirect, type Scenario } from '../fault-server.js';
import { KEY } from '../harness.js';
import { closedPort, crossOriginRedirect, type FaultCase, names, ok } from './shared.js';

export const routingFaults: readonly FaultCase[] = [
  {
    fault: '302 to another origin',
    server: '302 Location: the same path on another port (another origin)',
    sdk: 'follows it; the Authorization header does not follow',
    prepare: crossOriginRedirect(302),
    outcome: 'success',
    sent: 1,
    seen: 2,
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
    minMs: 1_450,
    check: names(/redirect count exceeded/),
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

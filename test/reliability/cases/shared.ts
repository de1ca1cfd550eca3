/** What every entry of the catalogue is, and the helpers the entries share. */
import { expect } from 'vitest';
import type { ClientOptions } from '../../../src/client-options.js';
import type { APIError } from '../../../src/index.js';
import { closedPort as closedLoopbackPort } from '../../helpers/free-port.js';
import { type FaultServer, type Handler, json, redirect, type Scenario, subjects } from '../fault-server.js';
import type { Settled } from '../harness.js';

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
  /**
   * It must not settle sooner: a wait that must have happened. Set a little below the policy's
   * shortest wait, since Node counts timers on a clock of whole milliseconds taken at the start of
   * an event-loop turn. A lower bound cannot fail because the machine is slow. On the fake clock
   * (`timeoutStrikes`), it is exactly the timeouts and the shortest backoffs the test steps through.
   */
  readonly minMs?: number;
  /**
   * For faults that only the client's own timeout ends: where each attempt must be when it does.
   * faults.test.ts runs these on a fake clock that it moves only once the attempt is there, so the
   * timeout strikes at that stage however slow the machine, and every wait is exact.
   */
  readonly timeoutStrikes?: 'before the headers' | 'during the body';
  readonly check?: (result: Settled<unknown>, prepared: Prepared) => void;
}

export const on =
  (...handlers: Handler[]) =>
  ({ main }: Servers): Prepared => {
    const scenario = main.scenario(...handlers);
    return { base: scenario.base, scenarios: [scenario] };
  };

export const ok = json(subjects);

export const errorOf = (result: Settled<unknown>) => result.error as APIError;

/** A ConnectionError's message names the request, then the low-level reason the runtime gave. */
export const names = (reason: RegExp) => (result: Settled<unknown>) => {
  const { message } = result.error as Error;
  expect(message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/\S*subjects failed: /);
  expect(message).toMatch(reason);
};

/** A base URL on 127.0.0.1 where nothing listens: a port that was free a moment ago. */
export async function closedPort(): Promise<string> {
  return `http://127.0.0.1:${await closedLoopbackPort()}/api/v1`;
}

export function crossOriginRedirect(status: 302 | 307) {
  return ({ main, other }: Servers): Prepared => {
    const target = other.scenario(ok);
    const source = main.scenario(redirect(status, `${target.base}/subjects`));
    return { base: source.base, scenarios: [source, target], target };
  };
}

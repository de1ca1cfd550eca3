/**
 * What the reliability tests share beyond test/support.ts: the fault servers as vitest fixtures, a
 * hang guard, and the figures each file prints for the README's Reliability table.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { backoff } from '../../src/core/retry.js';
import { type FaultServer, type Handler, type Scenario, startFaultServer } from './fault-server.js';

/**
 * Two fault servers for one test file: `main`, and `other`, on another port, hence another origin
 * (the target of cross-origin redirects).
 */
export function useFaultServers() {
  let main: FaultServer | undefined;
  let other: FaultServer | undefined;
  beforeAll(async () => {
    main = await startFaultServer();
    other = await startFaultServer();
  });
  afterAll(async () => {
    await main?.close();
    await other?.close();
  });
  const ready = (server: FaultServer | undefined) => {
    if (!server) throw new Error('the fault server is not started yet');
    return server;
  };
  return {
    get main() {
      return ready(main);
    },
    get other() {
      return ready(other);
    },
    scenario(...handlers: Handler[]): Scenario {
      return ready(main).scenario(...handlers);
    },
  };
}

// Taken before any test fakes them: the hang guard and the polling below run on the real clock.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;

/**
 * How much longer than the policy's worst case a call may take before it counts as hung. Large on
 * purpose: the guard tells a call that never settles from one that settles, however loaded the
 * machine; how fast a call settles is never asserted.
 */
export const hangFactor = 10;

/**
 * The longest the retry policy lets a call take: every backoff at its jittered longest (p-retry's
 * `randomize` doubles it at most), or the server's Retry-After where that is longer, and every
 * attempt running to its timeout (0 for attempts that end on their own, by an answer or an error).
 */
export function worstCaseMs({ retries = 2, timeoutMs = 0, retryAfterMs = 0 } = {}): number {
  let total = (retries + 1) * timeoutMs;
  for (let retry = 1; retry <= retries; retry++) {
    const longest = Math.min(2 * backoff.minTimeout * backoff.factor ** (retry - 1), backoff.maxTimeout);
    total += Math.max(longest, retryAfterMs);
  }
  return total;
}

export class HangError extends Error {
  override name = 'HangError';
}

export interface Settled<T> {
  readonly value?: T;
  readonly error?: unknown;
  readonly ok: boolean;
  /** Milliseconds from the call to its settling, on the real clock: a figure, never an assertion. */
  readonly ms: number;
}

/**
 * How long a call may stay pending before it counts as hung. With `lastProgress` (the real time,
 * `performance.now()`, when anything else last moved), the time counts from that moment instead of
 * the call's start: one call among hundreds waits for the others' work, however long a loaded
 * machine takes over it, and is hung only when everything around it has stopped.
 */
export type HangGuard = number | { readonly ms: number; readonly lastProgress: () => number };

/**
 * Runs `call` and reports how and when it settled; never rejects. With `hangGuard`, a call still
 * pending after that long (real time, whatever the test does to the timers) settles as a
 * {@link HangError} instead, so that a hang fails with its own message rather than a test timeout.
 */
export async function settle<T>(call: () => PromiseLike<T>, hangGuard?: HangGuard): Promise<Settled<T>> {
  const started = performance.now();
  let guard: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    if (hangGuard === undefined) return;
    const { ms, lastProgress } =
      typeof hangGuard === 'number' ? { ms: hangGuard, lastProgress: undefined } : hangGuard;
    const since = lastProgress === undefined ? 'the call' : 'anything else moved';
    const check = () => {
      const quiet = performance.now() - Math.max(started, lastProgress?.() ?? started);
      if (quiet < ms) guard = realSetTimeout(check, ms - quiet);
      else reject(new HangError(`not settled ${ms} ms after ${since} (the hang guard): it hangs`));
    };
    guard = realSetTimeout(check, ms);
  });
  try {
    const value = await Promise.race([call(), hung]);
    return { value, ok: true, ms: performance.now() - started };
  } catch (error) {
    return { error, ok: false, ms: performance.now() - started };
  } finally {
    realClearTimeout(guard);
  }
}

/**
 * Resolves once `condition()` holds, polling on the real clock (so it works with fake timers
 * installed); throws a {@link HangError} if it still does not after `hangGuardMs`.
 */
export async function until(condition: () => boolean, what: string, hangGuardMs: number): Promise<void> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > hangGuardMs) {
      throw new HangError(`still waiting for ${what} after ${hangGuardMs} ms (the hang guard)`);
    }
    await new Promise((resolve) => realSetTimeout(resolve, 5));
  }
}

/** The class name of an outcome: the error's `name`, or `success`. */
export function outcomeName(result: Settled<unknown>): string {
  if (result.ok) return 'success';
  const error = result.error;
  return error instanceof Error ? error.name : typeof error;
}

/**
 * Prints a table of figures from an `afterAll`. With `RELIABILITY_FIGURES=<directory>` set, also
 * writes them there as `<name>.json` (nothing is written otherwise, so a plain `npm test` leaves the
 * tree clean).
 */
export function reportFigures(name: string, rows: () => Array<Record<string, unknown>>): void {
  afterAll(() => {
    const data = rows();
    if (data.length === 0) return;
    console.log(`\n[reliability figures: ${name}]\n${table(data)}`);
    const directory = process.env.RELIABILITY_FIGURES;
    if (directory) {
      mkdirSync(directory, { recursive: true });
      writeFileSync(join(directory, `${name}.json`), `${JSON.stringify(data, null, 2)}\n`);
    }
  });
}

function table(rows: Array<Record<string, unknown>>): string {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cells = rows.map((row) => columns.map((column) => String(row[column] ?? '')));
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((cell) => cell[i]!.length)));
  const line = (values: string[]) => `| ${values.map((value, i) => value.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

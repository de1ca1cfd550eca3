/**
 * What the reliability tests share: the fault servers as vitest fixtures, the client they use, a
 * timer, and the figures each file prints for the README's Reliability table.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { ClientOptions } from '../../src/core/options.js';
import { MetricClient } from '../../src/index.js';
import { type FaultServer, type Handler, type Scenario, startFaultServer } from './fault-server.js';

/** The key every reliability test uses: long and distinctive, so a leak of it cannot go unseen. */
export const KEY = 'sk_live_RELIABILITY_9f27c4e1d8b35a60';

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

export function clientFor(scenario: { base: string }, options: ClientOptions = {}): MetricClient {
  return new MetricClient({ apiKey: KEY, baseUrl: scenario.base, ...options });
}

export interface Settled<T> {
  readonly value?: T;
  readonly error?: unknown;
  readonly ok: boolean;
  /** Milliseconds from the call to its settling. */
  readonly ms: number;
}

/** Runs `call` and reports how and when it settled; never rejects. */
export async function settle<T>(call: () => PromiseLike<T>): Promise<Settled<T>> {
  const started = performance.now();
  try {
    const value = await call();
    return { value, ok: true, ms: performance.now() - started };
  } catch (error) {
    return { error, ok: false, ms: performance.now() - started };
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

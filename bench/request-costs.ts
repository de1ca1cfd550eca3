/**
 * 1b. Where the SDK's time per request goes beyond ky used by hand: a ladder of contenders on
 * loopback, each adding one piece of what src/core/transport.ts does, built from the same pieces
 * (imported from src/), ending with the SDK itself. The step from one rung to the next, paired per
 * round, is that piece's cost.
 */
import ky from 'ky';
import pRetry from 'p-retry';
import { Deadline } from '../src/core/abort.js';
import { Quota } from '../src/core/quota.js';
import { backoff, isRetryable } from '../src/core/retry.js';
import { Transport } from '../src/core/transport.js';
import { parseResponse } from '../src/core/validate.js';
import { resolveClientOptions } from '../src/resolve-options.js';
import { shapes } from '../src/schemas/shapes.js';
import {
  type Contender,
  interleave,
  loadSdk,
  loadTesting,
  report,
  type Spread,
  sdkHeaders,
  spread,
  startServer,
} from './lib.js';

export interface CostResult {
  rounds: number;
  batch: number;
  /** Each rung: its time per request, and what it adds over the rung before (paired per round), in µs. */
  rungs: Array<{ name: string; wall: Spread; cpu: Spread; addedWall?: Spread; addedCpu?: Spread }>;
  /** A way to time an attempt out without a signal per call, against the Deadline rung, in µs. */
  alternative: { name: string; wall: Spread; cpu: Spread; savedWall: Spread; savedCpu: Spread };
}

export const alternativeName =
  'ky by hand with ky’s own timeout (headers and body, through its .text()), no signal per call';

export const rungNames = [
  'ky by hand',
  '+ a signal per attempt, forwarded past ky to fetch (as the SDK does: no AbortSignal.any)',
  '+ the attempt’s Deadline (a controller, a timer, two races)',
  '+ p-retry around the attempt',
  '+ parseResponse (JSON.parse, safeParse through the generated parser)',
  'the SDK’s Transport.get (+ option checks, URL, quota branch, request id, the answer object)',
  'scholarly-metrics: client.journals.get (+ the id check, APIPromise)',
] as const;

async function main(): Promise<CostResult> {
  const { MetricClient } = await loadSdk();
  const { MOCK_API_KEY } = await loadTesting();
  const server = await startServer({ kind: 'mock' });
  try {
    const { url } = server;
    const sdk = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: url });
    // The SDK's headers, set once on the instance as the SDK does.
    const headers = await sdkHeaders(url, MOCK_API_KEY);
    const transport = new Transport(
      resolveClientOptions({ apiKey: MOCK_API_KEY, baseUrl: url }),
      new Quota(),
    );
    const k = ky.create({ retry: 0, timeout: false, throwHttpErrors: false, headers });
    // The SDK hands each attempt's signal to fetch as an option ky forwards, not as ky's `signal`.
    const forwarded = 'scholarlyMetricsAttemptSignal';
    const kf = ky.create({
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      headers,
      fetch: (input, init) => fetch(input, { signal: (init as Record<string, AbortSignal>)[forwarded] }),
    });
    const kyTimed = ky.create({ retry: 0, timeout: 60_000, throwHttpErrors: false, headers });
    const target = (i: number) => `${url}/journals/${(i % 400) + 1}`;
    const shape = shapes.journalProfile;
    const timeout = 60_000;

    const plain = async (i: number) => JSON.parse(await (await k.get(target(i))).text());
    /** ky's options with the forwarded signal (ky's types know only its own keys). */
    const carrying = (signal: AbortSignal): Record<string, unknown> => ({ [forwarded]: signal });
    const signalled = async (i: number) =>
      JSON.parse(await (await kf.get(target(i), carrying(new AbortController().signal))).text());
    const deadlined = async (i: number, parse: (text: string) => unknown = JSON.parse) => {
      const deadline = new Deadline(timeout, undefined);
      try {
        const response = await deadline.race(kf.get(target(i), carrying(deadline.signal)));
        return parse(await deadline.race(response.text()));
      } finally {
        deadline.clear();
      }
    };
    const retried = (i: number, parse?: (text: string) => unknown) =>
      pRetry(() => deadlined(i, parse), {
        ...backoff,
        retries: 2,
        shouldRetry: ({ error }) => isRetryable(error),
      });
    const validated = (i: number) => retried(i, (text) => parseResponse(shape, text, MOCK_API_KEY));

    const viaTransport = async (i: number) =>
      (await transport.get(() => ({ path: `/journals/${(i % 400) + 1}` }), shape)).data;
    const viaClient = (i: number) => sdk.journals.get((i % 400) + 1);
    const runs = [plain, signalled, deadlined, retried, validated, viaTransport, viaClient];
    const contenders: Contender[] = [
      ...rungNames.map((name, n) => ({ name, run: runs[n]! })),
      { name: alternativeName, run: async (i) => JSON.parse(await kyTimed.get(target(i)).text()) },
    ];

    const rounds = 200;
    const batch = 20;
    const samples = await interleave(contenders, { rounds, batch, warmup: 300 });
    const of = (name: string) => samples.get(name)!;
    const added = (a: number[], b: number[]) => spread(a.map((value, i) => value - b[i]!));
    const deadline = of(rungNames[2]);
    const alternative = of(alternativeName);
    return {
      alternative: {
        name: alternativeName,
        wall: spread(alternative.wall),
        cpu: spread(alternative.cpu),
        savedWall: added(deadline.wall, alternative.wall),
        savedCpu: added(deadline.cpu, alternative.cpu),
      },
      rounds,
      batch,
      rungs: rungNames.map((name, n) => {
        const rung = of(name);
        const before = n > 0 ? of(rungNames[n - 1]!) : undefined;
        return {
          name,
          wall: spread(rung.wall),
          cpu: spread(rung.cpu),
          ...(before && { addedWall: added(rung.wall, before.wall), addedCpu: added(rung.cpu, before.cpu) }),
        };
      }),
    };
  } finally {
    await server.close();
  }
}

await report(main);

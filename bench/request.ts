/**
 * 1. Per request: one journal profile (`GET /journals/{id}`) from the mock API, one request at a time,
 * by each contender in turn, first on loopback, then from a server that holds every answer the same
 * few milliseconds. The yardstick is ky used by hand with the SDK's own `ky.create` settings and the
 * very headers the SDK sends: what the SDK adds on top of that is its own cost.
 */
import { deepStrictEqual } from 'node:assert';
import ky from 'ky';
import createClient from 'openapi-fetch';
import type { JournalProfile } from '../src/index.js';
import { requestNames as names, requestLatencyMs } from './config.js';
import {
  type Contender,
  figures,
  interleave,
  loadSdk,
  loadTesting,
  report,
  type Spread,
  sdkHeaders,
  startServer,
} from './lib.js';

/** The one path of the API document as openapi-typescript writes it: what openapi-fetch is typed from. */
interface paths {
  '/journals/{id}': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: never; header?: never; path: { id: number }; cookie?: never };
      requestBody?: never;
      responses: {
        200: { headers: { [name: string]: unknown }; content: { 'application/json': JournalProfile } };
      };
    };
  };
}

export interface Phase {
  /** The server's delay before every answer, in ms (0: loopback as fast as it goes). */
  latencyMs: number;
  rounds: number;
  batch: number;
  /** The names of the headers every contender sends: the SDK's own, read off a request it made. */
  headers: string[];
  /** The server's keep-alive hint: at 2 s or less, Node's fetch opens a connection per request. */
  keepAlive: string | null;
  /** Per request, in µs: wall time and this process's CPU time. */
  contenders: Array<{ name: string; wall: Spread; cpu: Spread }>;
  /** Paired per round. */
  ratios: Array<{ of: string; to: string; wall: Spread; cpu: Spread }>;
}

export interface RequestResult {
  phases: Phase[];
}

const journal = (i: number) => (i % 400) + 1;

async function phase(latencyMs: number, queued: boolean, rounds: number, batch: number): Promise<Phase> {
  const { MetricClient } = await loadSdk();
  const { MOCK_API_KEY } = await loadTesting();
  const server = await startServer({ kind: 'mock', options: { faults: { latencyMs } } });
  try {
    const { url } = server;
    const headers = await sdkHeaders(url, MOCK_API_KEY);
    // The SDK's settings exactly (src/core/transport.ts): one instance, full URLs, no `baseUrl`.
    const kyHand = ky.create({ retry: 0, timeout: false, throwHttpErrors: false, headers });
    const openapi = createClient<paths>({ baseUrl: url, headers });
    const sdk = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: url });
    const sdkQueued = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: url, maxConcurrency: 1_000_000 });

    const contenders: Contender[] = [
      {
        name: names.fetch,
        run: async (i) =>
          JSON.parse(await (await fetch(`${url}/journals/${journal(i)}`, { headers })).text()),
      },
      {
        name: names.ky,
        run: async (i) => JSON.parse(await (await kyHand.get(`${url}/journals/${journal(i)}`)).text()),
      },
      {
        name: names.openapi,
        run: async (i) => {
          const { data } = await openapi.GET('/journals/{id}', { params: { path: { id: journal(i) } } });
          if (data === undefined) throw new Error('openapi-fetch: no data');
          return data;
        },
      },
      { name: names.sdk, run: (i) => sdk.journals.get(journal(i)) },
      ...(queued ? [{ name: names.sdkQueued, run: (i: number) => sdkQueued.journals.get(journal(i)) }] : []),
    ];

    // Every contender gets the same answers, or the comparison means nothing.
    for (let i = 0; i < 5; i++) {
      const expected = await contenders[0]!.run(i);
      for (const contender of contenders.slice(1)) deepStrictEqual(await contender.run(i), expected);
    }
    const keepAlive = (await fetch(`${url}/journals/1`, { headers })).headers.get('keep-alive');

    const samples = await interleave(contenders, { rounds, batch, warmup: latencyMs > 0 ? 50 : 300 });
    const { contender, ratio } = figures(samples);
    return {
      latencyMs,
      rounds,
      batch,
      headers: Object.keys(headers).sort(),
      keepAlive,
      contenders: contenders.map(({ name }) => contender(name)),
      ratios: [
        ratio(names.sdk, names.ky),
        ...(queued ? [ratio(names.sdkQueued, names.ky), ratio(names.sdkQueued, names.sdk)] : []),
        ratio(names.sdk, names.openapi),
        ratio(names.sdk, names.fetch),
        ratio(names.ky, names.fetch),
        ratio(names.openapi, names.fetch),
      ],
    };
  } finally {
    await server.close();
  }
}

async function main(): Promise<RequestResult> {
  // Loopback carries the quota comparison too: there the SDK's own costs weigh the most.
  return { phases: [await phase(0, true, 200, 20), await phase(requestLatencyMs, false, 80, 10)] };
}

await report(main);

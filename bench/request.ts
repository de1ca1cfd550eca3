/**
 * 1. Per-request overhead: one journal profile (`GET /journals/{id}`) from the mock API over loopback,
 * one request at a time, by each contender in turn.
 */
import { deepStrictEqual } from 'node:assert';
import ky from 'ky';
import createClient from 'openapi-fetch';
import type { JournalProfile } from '../src/index.js';
import { requestNames as names } from './config.js';
import {
  type Contender,
  interleave,
  loadSdk,
  loadTesting,
  pairedRatios,
  report,
  type Spread,
  spread,
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

export interface RequestResult {
  rounds: number;
  batch: number;
  /** The server's keep-alive hint: at 2 s or less, Node's fetch opens a connection per request. */
  keepAlive: string | null;
  contenders: Array<{ name: string; wall: Spread; cpu: Spread }>;
  /** Paired per round: [numerator, denominator, wall spread, cpu spread]. */
  ratios: Array<{ of: string; to: string; wall: Spread; cpu: Spread }>;
}

async function main(): Promise<RequestResult> {
  const { MetricClient } = await loadSdk();
  const { MOCK_API_KEY } = await loadTesting();
  const server = await startServer({ kind: 'mock' });
  try {
    const { url } = server;
    const headers = { authorization: `Bearer ${MOCK_API_KEY}`, accept: 'application/json' };
    const journal = (i: number) => (i % 400) + 1;
    const kyDefaults = ky.create({ headers });
    const kyFloor = ky.create({ headers, retry: 0, timeout: false, throwHttpErrors: false });
    const openapi = createClient<paths>({ baseUrl: url, headers });
    const sdk = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: url });

    const contenders: Contender[] = [
      {
        name: names.fetch,
        run: async (i) =>
          JSON.parse(await (await fetch(`${url}/journals/${journal(i)}`, { headers })).text()),
      },
      { name: names.ky, run: (i) => kyDefaults.get(`${url}/journals/${journal(i)}`).json() },
      { name: names.kyFloor, run: (i) => kyFloor.get(`${url}/journals/${journal(i)}`).json() },
      {
        name: names.openapi,
        run: async (i) => {
          const { data } = await openapi.GET('/journals/{id}', { params: { path: { id: journal(i) } } });
          if (data === undefined) throw new Error('openapi-fetch: no data');
          return data;
        },
      },
      { name: names.sdk, run: (i) => sdk.journals.get(journal(i)) },
    ];

    // Every contender gets the same answers, or the comparison means nothing.
    for (let i = 0; i < 5; i++) {
      const expected = await contenders[0]!.run(i);
      for (const contender of contenders.slice(1)) deepStrictEqual(await contender.run(i), expected);
    }
    const keepAlive = (await fetch(`${url}/journals/1`, { headers })).headers.get('keep-alive');

    const rounds = 200;
    const batch = 20;
    const samples = await interleave(contenders, { rounds, batch, warmup: 300 });
    const of = (name: string) => samples.get(name)!;
    const ratio = (a: string, b: string) => ({
      of: a,
      to: b,
      wall: spread(pairedRatios(of(a).wall, of(b).wall)),
      cpu: spread(pairedRatios(of(a).cpu, of(b).cpu)),
    });
    return {
      rounds,
      batch,
      keepAlive,
      contenders: contenders.map(({ name }) => ({
        name,
        wall: spread(of(name).wall),
        cpu: spread(of(name).cpu),
      })),
      ratios: [
        ratio(names.sdk, names.openapi),
        ratio(names.sdk, names.fetch),
        ratio(names.openapi, names.fetch),
        ratio(names.ky, names.fetch),
        ratio(names.kyFloor, names.fetch),
        ratio(names.kyFloor, names.openapi),
      ],
    };
  } finally {
    await server.close();
  }
}

await report(main);

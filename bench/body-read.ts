/**
 * 3b. The bounded body read against the unbounded one it replaced, on loopback: the same request
 * read with `response.text()` raced against the attempt's Deadline (0.2) and with `readBody`
 * (a stream counted against `maxResponseBytes`, src/core/read-body.ts), paired per round, for a
 * small body (one journal profile) and a page of papers. Each read is parsed, as the SDK would.
 * Loopback on a shared machine is noisy, so the read alone is also measured without a socket: a
 * 1,000-item page held in memory, handed over in 64 KiB chunks as a socket would.
 *
 * Run alone (after `npm run build`): `npx tsx bench/body-read.ts`.
 */
import { Deadline } from '../src/core/abort.js';
import { defaultMaxResponseBytes } from '../src/core/options/request.js';
import { readBody } from '../src/core/read-body.js';
import { bodyReadNames as names } from './config.js';
import {
  type Contender,
  figures,
  interleave,
  loadTesting,
  pageText,
  report,
  type Spread,
  startServer,
} from './lib.js';

export interface BodyReadResult {
  rounds: number;
  batch: number;
  bodies: Array<{
    body: string;
    bytes: number;
    contenders: Array<{ name: string; wall: Spread; cpu: Spread }>;
    /** The bounded read over the unbounded one, paired per round. */
    ratio: { wall: Spread; cpu: Spread };
  }>;
}

/** A response over `bytes`, in 64 KiB chunks. */
function chunked(bytes: Uint8Array): Response {
  const size = 64 * 1024;
  let at = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + size));
      at += size;
    },
  });
  return new Response(stream, { headers: { 'content-type': 'application/json' } });
}

async function main(): Promise<BodyReadResult> {
  const { MOCK_API_KEY } = await loadTesting();
  const server = await startServer({ kind: 'mock' });
  const headers = { accept: 'application/json', authorization: `Bearer ${MOCK_API_KEY}` };
  const rounds = 150;
  const batch = 10;
  try {
    const bodies = [
      { body: 'a journal profile', target: (i: number) => `${server.url}/journals/${(i % 400) + 1}` },
      {
        body: 'a page of a journal’s papers (per_page=100)',
        target: (i: number) => `${server.url}/journals/${(i % 20) + 1}/papers?per_page=100`,
      },
    ];
    const page = new TextEncoder().encode(await pageText());
    const results: BodyReadResult['bodies'] = [];
    const inMemory = { body: 'a 1,000-item page, in memory (no socket)', target: () => '' };
    for (const { body, target } of [...bodies, inMemory]) {
      const respond = (i: number, signal: AbortSignal) =>
        body === inMemory.body ? Promise.resolve(chunked(page)) : fetch(target(i), { headers, signal });
      const read =
        (how: (response: Response, deadline: Deadline) => Promise<string>) => async (i: number) => {
          const deadline = new Deadline(60_000, undefined);
          try {
            const response = await deadline.race(respond(i, deadline.signal));
            return JSON.parse(await how(response, deadline));
          } finally {
            deadline.clear();
          }
        };
      const contenders: Contender[] = [
        { name: names.text, run: read((response, deadline) => deadline.race(response.text())) },
        {
          name: names.bounded,
          run: read((response, deadline) =>
            readBody(response, defaultMaxResponseBytes, deadline, () => 'GET'),
          ),
        },
      ];
      // Both reads give the same value.
      const [a, b] = [await contenders[0]!.run(0), await contenders[1]!.run(0)];
      if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${body}: the two reads differ`);
      const bytes = Buffer.byteLength(JSON.stringify(a));
      const { contender, ratio } = figures(await interleave(contenders, { rounds, batch, warmup: 100 }));
      const { wall, cpu } = ratio(names.bounded, names.text);
      results.push({
        body,
        bytes,
        contenders: contenders.map(({ name }) => contender(name)),
        ratio: { wall, cpu },
      });
    }
    return { rounds, batch, bodies: results };
  } finally {
    await server.close();
  }
}

await report(main);

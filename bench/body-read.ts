// §3b, the bounded body read (`readBody`) against `response.text()` raced against the attempt's Deadline, each
// parsed; beside loopback (noisy on a shared machine), a page held in memory, handed over in 64 KiB chunks.
import { Deadline } from '../src/core/abort.js';
import { defaultMaxResponseBytes } from '../src/core/options/request.js';
import { readBody } from '../src/core/read-body.js';
import { atMost, x } from './format.js';
import { compare, loadTesting, pageText, scaled, withServer } from './lib.js';
import type { Report, Results } from './report.js';

export const about = { id: '3b', key: 'bodyRead', file: 'body-read.ts' };
const names = {
  text: 'fetch + response.text() raced against the Deadline (0.2, unbounded)',
  bounded: 'fetch + readBody within maxResponseBytes (0.3, bounded)',
} as const;
type Respond = (i: number, signal: AbortSignal) => Promise<Response>;

/** The two reads of one body, each a request (or the page in memory) parsed within a Deadline. */
function readers(respond: Respond) {
  const read = (how: (response: Response, deadline: Deadline) => Promise<string>) => async (i: number) => {
    const deadline = new Deadline(60_000, undefined);
    try {
      return JSON.parse(await how(await deadline.race(respond(i, deadline.signal)), deadline));
    } finally {
      deadline.clear();
    }
  };
  return {
    [names.text]: read((response, deadline) => deadline.race(response.text())),
    [names.bounded]: read((response, deadline) =>
      readBody(response, defaultMaxResponseBytes, deadline, () => 'GET'),
    ),
  };
}

export async function measure() {
  const { MOCK_API_KEY } = await loadTesting();
  const headers = { accept: 'application/json', authorization: `Bearer ${MOCK_API_KEY}` };
  const page = new TextEncoder().encode(await pageText());
  const inMemory = async () => {
    let at = 0;
    const pull = (controller: ReadableStreamDefaultController<Uint8Array>) => {
      if (at >= page.length) return controller.close();
      controller.enqueue(page.subarray(at, at + 65_536));
      at += 65_536;
    };
    return new Response(new ReadableStream({ pull }), { headers: { 'content-type': 'application/json' } });
  };
  const options = { rounds: scaled(150, 6), batch: scaled(10, 3), warmup: scaled(100, 3), same: 1 };
  return withServer({ kind: 'mock' }, async ({ url }) => {
    const over = (path: (i: number) => string) => (i: number, signal: AbortSignal) =>
      fetch(url + path(i), { headers, signal });
    const bodies: Record<string, Respond> = {
      'a journal profile': over((i) => `/journals/${(i % 400) + 1}`),
      'a page of a journal’s papers (per_page=100)': over(
        (i) => `/journals/${(i % 20) + 1}/papers?per_page=100`,
      ),
      'a 1,000-item page, in memory (no socket)': inMemory,
    };
    const results = [];
    for (const [body, respond] of Object.entries(bodies)) {
      const { ratios } = await compare(readers(respond), options, [[names.bounded, names.text]]);
      results.push({ body, ratio: ratios[0]! });
    }
    return { bodies: results };
  });
}

export function report({ bodies }: Results['bodyRead']): Report {
  const what = `the bounded body read ÷ \`response.text()\` (0.2): ${bodies.map((b) => b.body).join(' / ')}`;
  const worst = Math.max(...bodies.map((b) => b.ratio.wall.median));
  return { rows: [atMost(what, bodies.map((b) => x(b.ratio.wall.median)).join(' / '), worst, 1.02)] };
}

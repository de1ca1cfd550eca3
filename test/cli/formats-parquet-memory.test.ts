/**
 * A large Parquet harvest holds one row group in memory, never the whole: the bin's peak RSS for
 * 200,000 papers is within a bound of its peak for 20,000, from a server that makes its pages up as
 * they are asked for (as bench/server.ts does). The peak is read from Linux's /proc/PID/status.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start } from './helpers.js';
import { duckdb } from './output/duckdb.js';
import { scratch } from './resume.js';

let server: Server;
let url: string;
/** The papers the server makes up: set before each run. */
let totalPapers = 0;

/** `GET /journals/1/papers` over `totalPapers` papers that exist only as numbers. */
beforeAll(async () => {
  server = createServer((request, response) => {
    const query = new URL(request.url ?? '/', 'http://localhost').searchParams;
    const total = totalPapers;
    const page = Number(query.get('page') ?? 1);
    const perPage = Number(query.get('per_page') ?? 20);
    const data = [];
    for (let id = (page - 1) * perPage + 1; id <= Math.min(total, page * perPage); id++)
      data.push({
        id,
        title: `Paper ${id}`,
        authors: 'A. Author, B. Author',
        year: 2000 + (id % 25),
        citations: id % 997,
      });
    const body = JSON.stringify({ data, total });
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The bin harvesting `total` papers into a Parquet file with a heap of `heapMb`, and its peak RSS (VmHWM, bytes). */
async function harvest(total: number, file: string, heapMb: number, extra: string[] = []) {
  totalPapers = total;
  const child = start(
    ['journals', 'papers', '1', '--all', '--per-page', '1000', '--quiet', '-o', file, ...extra],
    { url, env: { NODE_OPTIONS: `--max-old-space-size=${heapMb}` } },
  );
  let peak = 0;
  let ended = false;
  void child.exited.then(() => {
    ended = true;
  });
  const status = `/proc/${child.child.pid}/status`;
  while (!ended) {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(status, 'utf8'));
      if (match) peak = Math.max(peak, Number(match[1]) * 1024);
    } catch {
      // Gone between the check and the read.
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { ...(await child.exited), peak };
}

describe('a large Parquet harvest', { timeout: 600_000 }, () => {
  it('holds one row group in memory: 200,000 rows within a heap the whole harvest overflows', async () => {
    const folder = scratch();
    const large = join(folder, 'large.parquet');
    const bounded = await harvest(200_000, large, heapMb);
    expect(bounded.code, bounded.stderr).toBe(0);
    expect(await duckdb(`SELECT count(*) AS n, count(DISTINCT id) AS ids FROM '${large}'`)).toEqual([
      { n: '200000', ids: '200000' },
    ]);
    const small = await harvest(20_000, join(folder, 'small.parquet'), heapMb);
    expect(small.code, small.stderr).toBe(0);
    // RSS grows little with ten times the rows (the heap's own slack apart).
    expect(bounded.peak - small.peak).toBeLessThan(96 * 1024 * 1024);
    // The control: the whole harvest as one row group does not fit the same heap.
    const whole = await harvest(200_000, join(folder, 'whole.parquet'), heapMb, ['--row-group', '1000000']);
    expect(whole.code).not.toBe(0);
  });
});

/** The old space a bounded harvest is given: ample for a row group, too little for 200,000 rows. */
const heapMb = 64;

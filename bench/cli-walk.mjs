// The yardstick of bench/cli.ts: the SDK's own walk of `papers.search`, every item counted, nothing
// written, in a process of its own (plain node, the build in BENCH_DIST). With BENCH_WRITE, the script
// an analyst would write instead of the command: each item as a JSON line into that file.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { MetricClient } = await import(pathToFileURL(join(process.env.BENCH_DIST, 'index.js')).href);
const client = new MetricClient();
const perPage = Number(process.env.BENCH_PER_PAGE);
const prefetch = Number(process.env.BENCH_PREFETCH);
const out = process.env.BENCH_WRITE ? createWriteStream(process.env.BENCH_WRITE) : undefined;
let items = 0;
for await (const paper of client.papers.search({ per_page: perPage }, { prefetch })) {
  items++;
  if (out && !out.write(`${JSON.stringify(paper)}\n`)) await once(out, 'drain');
}
if (out) await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
if (items !== Number(process.env.BENCH_ITEMS)) throw new Error(`walked ${items} items`);

// The yardstick of bench/cli.ts: the SDK's own walk of `papers.search`, every item counted, nothing
// written, in a process of its own (plain node, the build in BENCH_DIST). Given a file, the script an
// analyst would write instead of the command: each item as a JSON line into that file.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [items, perPage, prefetch] = process.argv.slice(2, 5).map(Number);
const { MetricClient } = await import(pathToFileURL(join(process.env.BENCH_DIST, 'index.js')).href);
const out = process.argv[5] ? createWriteStream(process.argv[5]) : undefined;
let walked = 0;
for await (const paper of new MetricClient().papers.search({ per_page: perPage }, { prefetch })) {
  walked++;
  if (out && !out.write(`${JSON.stringify(paper)}\n`)) await once(out, 'drain');
}
if (out) await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
if (walked !== items) throw new Error(`walked ${walked} items`);

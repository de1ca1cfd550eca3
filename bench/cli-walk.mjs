// The yardstick of bench/cli.ts: the SDK's own walk of `papers.search`, every item counted, nothing
// written, in a process of its own (plain node, the build in BENCH_DIST).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { MetricClient } = await import(pathToFileURL(join(process.env.BENCH_DIST, 'index.js')).href);
const client = new MetricClient();
const perPage = Number(process.env.BENCH_PER_PAGE);
const prefetch = Number(process.env.BENCH_PREFETCH);
let items = 0;
for await (const _ of client.papers.search({ per_page: perPage }, { prefetch })) items++;
if (items !== Number(process.env.BENCH_ITEMS)) throw new Error(`walked ${items} items`);

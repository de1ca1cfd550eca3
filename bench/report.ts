// The one writer of BENCHMARKS.md. Each benchmark module gives its `about` and `report`: its rows of the Results
// table and its section, from its saved result (and the others, where it compares with another section).
import { arch, availableParallelism, cpus, platform, release, totalmem } from 'node:os';
import * as bodyRead from './body-read.js';
import * as cache from './cache.js';
import * as cli from './cli.js';
import * as coldStart from './cold-start.js';
import { type Row, table, verdict } from './format.js';
import * as getMany from './get-many.js';
import * as memory from './memory.js';
import * as paging from './paging.js';
import * as quota from './quota.js';
import * as redisQuota from './redis-quota.js';
import * as relay from './relay.js';
import * as request from './request.js';
import * as costs from './request-costs.js';
import * as size from './size.js';
import * as telemetry from './telemetry.js';
import * as validation from './validation.js';

export const command = 'npm run bench';

/** In the order they run and appear. */
const early = { request, costs, quota, validation, bodyRead, memory, size, coldStart, paging, getMany, cli };
const modules = { ...early, cache, redisQuota, telemetry, relay };
type Of<K extends keyof typeof modules> = Awaited<ReturnType<(typeof modules)[K]['measure']>>;
export type Results = { machine: Machine } & { [K in keyof typeof modules]: Of<K> };

export interface Benchmark {
  /** Its number (a letter after it: a subsection), key in the results, file, and its section's title. */
  about: { id: string; key: Exclude<keyof Results, 'machine'>; file: string; title?: string };
  report(result: never, results: Results): Report;
}
export type Report = { rows?: Row[]; text?: string };

export const benchmarks = Object.values(modules) as Benchmark[];

export function machine(loadBefore: number[], loadAfter: number[], minutes: number, commit: string) {
  const { node, v8 } = process.versions;
  const [os, cpu] = [`${platform()} ${release()} ${arch()}`, cpus()[0]?.model ?? 'unknown'];
  const [cores, memoryGB, date] = [availableParallelism(), totalmem() / 1024 ** 3, new Date().toISOString()];
  return { node: `v${node}`, v8, os, cpu, cores, memoryGB, loadBefore, loadAfter, date, commit, minutes };
}
/** The full run's machine; `--only` runs since then are listed in `again`, their sections named. */
type Machine = ReturnType<typeof machine> & { again?: Array<ReturnType<typeof machine> & { ids: string[] }> };

const intro = `# Benchmarks

Written by \`${command}\` (bench/run.ts) from its last run: do not edit by hand. Every figure is a median; a
comparison's contenders run in one process, round-robin in small batches with the first rotating, so that a noisy
neighbour slows all alike; ratios are paired round by round. HTTP goes over loopback to a server in its own process
(the mock API, \`scholarly-metrics/testing\`, or one that makes pages up). What is measured is dist/, copied aside.`;

const machineText = (m: Machine) => {
  const load = (values: number[]) => values.map((n) => n.toFixed(2)).join(', ');
  return `## Machine and command

- Command: \`${command}\` (\`tsx bench/run.ts\`; it runs \`npm run build\` first when dist/ is older than src/), ${m.minutes.toFixed(1)} minutes
- Node ${m.node} (V8 ${m.v8}), ${m.os}
- CPU: ${m.cpu}, ${m.cores} cores; ${m.memoryGB.toFixed(0)} GB of memory
- Load average (1, 5, 15 min) before: ${load(m.loadBefore)}; after: ${load(m.loadAfter)}
- ${m.date}, commit ${m.commit}
${(m.again ?? []).map((a) => `- Then ${a.ids.map((id) => `§${id}`).join(', ')} measured again (\`--only\`), ${a.minutes.toFixed(1)} minutes: load average before ${load(a.loadBefore)}; after ${load(a.loadAfter)}; ${a.date}, commit ${a.commit}\n`).join('')}
The machine is shared: absolute times move with the load; the ratios, paired within a run, much less. Spreads are
the 25th to 75th percentile of the rounds.`;
};

export function markdown(results: Results): string {
  const reports = benchmarks.map(({ about, report }) => ({
    about,
    ...report(results[about.key] as never, results),
  }));
  const rows = reports.flatMap(({ about: { id }, rows = [] }) =>
    rows.map((r) => [id, r.what, r.figure, r.target ?? 'none', r.met === undefined ? '' : verdict(r.met)]),
  );
  const heading = ({ id, title }: Benchmark['about']) =>
    `${/[a-z]$/.test(id) ? '###' : '##'} ${id}. ${title}`;
  const sections = reports.map((r) => (r.text ? `${heading(r.about)}\n\n${r.text.trim()}` : ''));
  const resultsTable = `## Results\n\n${table(['#', 'what', 'figure', 'target', ''], rows)}`;
  const parts = [intro, resultsTable, machineText(results.machine), ...sections];
  return `${parts.filter(Boolean).join('\n\n')}\n`;
}

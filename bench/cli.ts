// §9, the command line: `papers search --all -o FILE` in each format against the SDK's own walk, each run a
// fresh process measured from inside (bench/cli-probe.mjs); the progress line's cost, a table, `sync`.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parquetMetadata } from 'hyparquet';
import { headerLine, hiddenLine, layoutTable, rowLines } from '../src/cli/output/table.js';
import { Progress } from '../src/cli/progress.js';
import { atLeast, atMost, count, pct, range, table, x } from './format.js';
import { dist, median, pairedRatios, roundRobin, runNode, scaled, spread, withServer } from './lib.js';
import type { Report, Results } from './report.js';

export const about = { id: '9', key: 'cli', file: 'cli.ts', title: 'The command line' };

const config = { items: scaled(100_000, 5_000), perPage: 100, prefetch: 1, rounds: scaled(15, 2) };
const [fields, tableRows] = ['id,doi,title,citations', 1000];
/** Items per second ÷ the walk's: text formats, and the database formats, which do more per record. */
const targets = { speed: 0.9, databaseSpeed: 0.8, rss: 1.2, progress: 0.02, tableMs: 50 };
const commands = [...['jsonl', 'csv', 'tsv'].flatMap((f) => [f, `${f}, --fields`]), 'parquet', 'sqlite'];
const contenders = ['sdk walk', 'script', ...commands, 'jsonl, progress'];
type Probe = { seconds: number; cpuSeconds: number; maxRssMB: number };
type Run = Probe & { contender: string; round: number };

/** `node --import bench/cli-probe.mjs ARGS`: what the probe wrote when the process ended. */
async function probed(args: string[], folder: string, env: Record<string, string> = {}): Promise<Probe> {
  const probe = join(folder, 'probe.json');
  await runNode(['--import', './bench/cli-probe.mjs', ...args], { BENCH_PROBE_OUT: probe, ...env }, true);
  return JSON.parse(readFileSync(probe, 'utf8'));
}

function selectOne<T>(path: string, sql: string): T {
  const database = new DatabaseSync(path, { readOnly: true });
  const row = database.prepare(sql).get() as T;
  database.close();
  return row;
}

/** The records in a Parquet file (its footer's count), a SQLite database (its papers) or a text file. */
function recordsIn(format: string, path: string): number {
  if (format === 'sqlite') return selectOne<{ n: number }>(path, 'SELECT count(*) AS n FROM papers').n;
  if (format !== 'parquet')
    return readFileSync(path, 'utf8').split('\n').length - (format === 'jsonl' ? 1 : 2);
  // A copy: parquetMetadata reads the whole ArrayBuffer, and the file's Buffer may sit inside a larger pool.
  return Number(parquetMetadata(new Uint8Array(readFileSync(path)).buffer).num_rows);
}

/** One run: the walk (`script` writing each item as a JSON line), or the command; its output checked. */
async function runOnce(contender: string, url: string, folder: string) {
  const format = ['csv', 'tsv', 'parquet', 'sqlite'].find((f) => contender.startsWith(f)) ?? 'jsonl';
  const out = join(folder, `out.${format}`);
  // A fresh file each run: a checkpoint left by the last would make this one a resume, a database upserted into.
  for (const end of ['', '.checkpoint.json', '-wal', '-shm']) rmSync(out + end, { force: true });
  const { items, perPage, prefetch } = config;
  const progress = contender === 'jsonl, progress';
  const search = `${progress ? '' : '--quiet '}papers search --all --per-page ${perPage} --prefetch ${prefetch}`;
  const selected = contender.endsWith('--fields') ? ` --fields ${fields}` : '';
  const command = [join(dist, 'cli.js'), ...`${search}${selected}`.split(' '), '--output', out];
  const sizes = [items, perPage, prefetch].map(String);
  const walk = ['bench/cli-walk.mjs', ...sizes, contender === 'script' ? out : ''];
  const env = { METRIC_BASE_URL: url, METRIC_API_KEY: 'sk_bench_cli', BENCH_FAKE_TTY: progress ? '1' : '' };
  const isWalk = contender === 'sdk walk' || contender === 'script';
  const measured = await probed(isWalk ? walk : command, folder, { ...env, BENCH_DIST: dist });
  if (contender === 'sdk walk') return { ...measured, bytes: 0 };
  const written = recordsIn(format, out);
  if (written !== items) throw new Error(`${contender} wrote ${written} records, not ${items}`);
  return { ...measured, bytes: statSync(out).size };
}

/** `sync DB journals` of the whole mock (in-process, its default sizes). */
async function syncJournals(folder: string) {
  const database = join(folder, 'sync.sqlite');
  const args = [join(dist, 'cli.js'), '--mock', '--quiet', 'sync', database, 'journals'];
  const { seconds, maxRssMB } = await probed(args, folder);
  const sql = 'SELECT records, requests, (SELECT count(*) FROM journals) AS journals FROM sync_runs';
  const run = selectOne<Record<'records' | 'requests' | 'journals', number>>(database, sql);
  return { seconds, maxRssMB, records: run.records, requests: run.requests, journals: run.journals };
}

/** Nanoseconds of an `update()` that the redraw interval skips, and of one that draws. */
function progressParts(): { updateNs: number; drawNs: number } {
  let sink = 0;
  const stream = { isTTY: true, columns: 120, write: (text: string) => (sink += text.length) };
  const progress = Progress.for(stream as unknown as NodeJS.WriteStream, false);
  progress.begin('papers');
  const counts = { done: 1234, total: config.items, requests: 13 };
  const time = (n: number, force: boolean) => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i++) progress.update({ ...counts, done: counts.done + i }, force);
    return Number(process.hrtime.bigint() - started) / n;
  };
  time(10_000, true);
  const drawNs = time(50_000, true);
  progress.update(counts, true);
  const updateNs = time(200_000, false);
  if (sink === 0) throw new Error('the progress line drew nothing');
  return { updateNs, drawNs };
}

/** Median milliseconds to lay out and render a table of 1,000 papers for a 120-column terminal. */
function tableRender(): number {
  const names = ['Zoë Bauer', 'Chen Schmidt', '山田 太郎', 'Ana Moreau'];
  const rows = Array.from({ length: tableRows }, (_, i) => ({
    id: 4000 + i,
    title: `Rethinking microbial coral reefs under uncertainty, part ${i} — ${names[i % 4]}'s view`,
    authors: `${names[i % 4]}, ${names[(i + 1) % 4]}`,
    doi: `10.5023/sm.263.2002.${String(i).padStart(6, '0')}`,
    year: 1990 + (i % 35),
    citations: (i * 7919) % 20_000,
    oa: i % 2 === 0,
    journal_id: 1 + (i % 400),
  }));
  const times: number[] = [];
  for (let i = 0; i < scaled(30, 3); i++) {
    const started = performance.now();
    const layout = layoutTable(Object.keys(rows[0]!), rows, 120);
    const text = headerLine(layout) + rowLines(layout, rows) + hiddenLine(layout);
    times.push(performance.now() - started);
    if (text.length === 0) throw new Error('the table rendered nothing');
  }
  return median(times);
}

/** One figure of each run of `c`: runs are pushed in round order, so any two contenders' lists pair up by round. */
const runsOf = (runs: Run[], c: string, key: keyof Probe) =>
  runs.filter((run) => run.contender === c).map((run) => run[key]);

export async function measure() {
  const { items, perPage, prefetch, rounds } = config;
  const folder = mkdtempSync(join(tmpdir(), 'scholarly-bench-cli-'));
  // Every contender, round-robin, a fresh process each; the size of each one's file.
  const [runs, bytes] = [[] as Run[], {} as Record<string, number>];
  const sync = await withServer({ kind: 'synth', total: items }, ({ url }) =>
    roundRobin(contenders, rounds, async (contender, round) => {
      const { bytes: size, ...measured } = await runOnce(contender, url, folder);
      bytes[contender] = size;
      runs.push({ contender, round, ...measured });
    }),
  )
    .then(() => syncJournals(folder))
    .finally(() => rmSync(folder, { recursive: true, force: true }));
  const of = (c: string, key: keyof Probe) => runsOf(runs, c, key);
  const paired = (a: string, b: string, key: keyof Probe) => median(pairedRatios(of(a, key), of(b, key)));
  // Items per second ÷ the other's is the other's time ÷ its own.
  const ratios = (a: string, b: string) => {
    const [speed, rss] = [paired(b, a, 'seconds'), paired(a, b, 'maxRssMB')];
    return { speed, rss, cpu: paired(a, b, 'cpuSeconds') };
  };
  const { updateNs, drawNs } = progressParts();
  // The line's cost from its parts: an update per page, and a draw at most every 100 ms.
  const drawn = (items / perPage) * updateNs + (median(of('jsonl, progress', 'seconds')) * 10 + 1) * drawNs;
  const figures = { items, perPage, prefetch, runs, fields, sync };
  return {
    ...figures,
    commands: Object.fromEntries(commands.map((c) => [c, ratios(c, 'sdk walk')])),
    /** The jsonl command ÷ the script an analyst would write instead. */
    script: ratios('jsonl', 'script'),
    tableMs: tableRender(),
    /** CPU time, not wall: on a shared machine a whole run's wall time moves by far more than the line costs. */
    progressCost: paired('jsonl, progress', 'jsonl', 'cpuSeconds') - 1,
    progressBound: drawn / 1e9 / median(of('jsonl, progress', 'cpuSeconds')),
    /** The Parquet file's and the SQLite database's size ÷ the same records in jsonl. */
    sizes: { parquet: bytes.parquet! / bytes.jsonl!, sqlite: bytes.sqlite! / bytes.jsonl! },
  };
}

export function report(cli: Results['cli']): Report {
  const { script, sync, items, sizes } = cli;
  const rows = Object.entries(cli.commands).flatMap(([command, figures]) => {
    const [format, withFields] = command.split(', ') as ['parquet' | 'sqlite', string?];
    const what = `\`papers search --all -o FILE.${format}\`${withFields ? ` \`--fields ${cli.fields}\`` : ''}, ${count(items)} items`;
    const database = format in sizes;
    const size = database ? `; file size ${x(sizes[format])} the jsonl's` : '';
    const limit = database ? targets.databaseSpeed : targets.speed;
    const perSecond = `${what}: items per second ÷ the SDK's walk (prefetch ${cli.prefetch})${size}`;
    const speed = `${x(figures.speed)} (CPU time ${x(figures.cpu)} the walk's)`;
    return [
      atLeast(perSecond, speed, figures.speed, limit, `${limit}×`),
      atMost(`${what}: peak RSS ÷ the SDK's walk`, x(figures.rss), figures.rss, targets.rss, '1.2×'),
    ];
  });
  const rounds = Math.max(...cli.runs.map((run) => run.round)) + 1;
  const scriptWhat = `\`-o FILE.jsonl\`, ${count(items)} items ÷ the script an analyst would write instead (the SDK's walk writing each item as a JSON line to the file): items per second, peak RSS`;
  const syncWhat = `\`sync DB journals\` of the whole mock (${count(sync.journals)} journals, ${count(sync.records)} records): requests, seconds, peak RSS`;
  const progress = `the progress line's cost, from its parts (end to end, CPU: ${pct(cli.progressCost, 1)}, in the noise of ${rounds} runs)`;
  const tableWhat = `a table of ${count(tableRows)} papers laid out and rendered for 120 columns (median)`;
  const synced = `${count(sync.requests)} requests, ${sync.seconds.toFixed(1)} s, ${sync.maxRssMB.toFixed(0)} MB`;
  const { progress: limit, tableMs } = targets;
  rows.push(
    { what: scriptWhat, figure: `${x(script.speed)}, ${x(script.rss)} (CPU time ${x(script.cpu)})` },
    { what: syncWhat, figure: synced },
    atMost(progress, pct(cli.progressBound, 3), cli.progressBound, limit, pct(limit, 0)),
    atMost(tableWhat, `${cli.tableMs.toFixed(1)} ms`, cli.tableMs, tableMs, `${tableMs} ms`),
  );
  const of = (c: string, key: keyof Probe) => runsOf(cli.runs, c, key);
  const runs = [...new Set(cli.runs.map((run) => run.contender))].map((contender) => {
    const m = (key: keyof Probe) => median(of(contender, key));
    const speed = range(spread(pairedRatios(of('sdk walk', 'seconds'), of(contender, 'seconds'))));
    const cells = [m('seconds').toFixed(3), m('cpuSeconds').toFixed(3), `${m('maxRssMB').toFixed(1)} MB`];
    return [contender, ...cells, contender === 'sdk walk' ? '1' : speed];
  });
  const text = `bench/cli.ts: \`scholarly-metrics papers search --all --per-page ${cli.perPage} --prefetch ${cli.prefetch} -o FILE\` over ${count(items)} items
a server makes up (bench/server.ts), against the SDK's own walk of the same pages (bench/cli-walk.mjs, nothing
written); each run a fresh process timed from inside (bench/cli-probe.mjs). ${rounds} rounds, round-robin, ratios
paired within a round; one run moves by much more than the gaps here: the quartiles show how much.

${table(['contender', 'seconds', 'CPU seconds', 'peak RSS', "speed ÷ the walk's (p25 to p75)"], runs)}`;
  return { rows, text };
}

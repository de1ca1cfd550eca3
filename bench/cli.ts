// §9, the command line: `papers search --all -o FILE` against the SDK's own walk of the same pages
// (bench/cli-walk.mjs), each run a fresh process measured from inside (bench/cli-probe.mjs); the
// progress line's cost; and, in this process, a table rendered. Parquet and SQLite beside the text
// formats (their files' size against the same records in jsonl), and `sync DB journals` of the mock.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parquetMetadata } from 'hyparquet';
import { headerLine, hiddenLine, layoutTable, rowLines } from '../src/cli/output/table.js';
import { Progress } from '../src/cli/progress.js';
import { atLeast, atMost, count, pct, type Row, range, table, x } from './format.js';
import { dist, median, pairedRatios, root, roundRobin, scaled, spread, withServer } from './lib.js';

export const about = { id: '9', key: 'cli', file: 'cli.ts' } as const;

const config = { items: scaled(100_000, 5_000), perPage: 100, prefetch: 1, rounds: scaled(15, 2) };
const table1000 = { rows: 1000, renders: scaled(30, 3), columns: 120 };
const fields = 'id,doi,title,citations';
const targets = { speed: 0.9, rss: 1.2, progress: 0.02, tableMs: 50 };

type Command = `${'jsonl' | 'csv' | 'tsv'}${'' | ', --fields'}` | 'parquet' | 'sqlite';
const commands: Command[] = [
  'jsonl',
  'jsonl, --fields',
  'csv',
  'csv, --fields',
  'tsv',
  'tsv, --fields',
  'parquet',
  'sqlite',
];
/** The targets of the database formats, which do more per record than a line of text. */
const databaseSpeed = 0.8;
type Contender = 'sdk walk' | 'script' | Command | 'jsonl, progress';
const contenders: Contender[] = ['sdk walk', 'script', ...commands, 'jsonl, progress'];

/** The command's arguments, or the walk's script: `script` is the walk writing each item as a JSON line. */
function argv(contender: Contender, outFile: string): string[] {
  if (contender === 'sdk walk' || contender === 'script') return [join(root, 'bench/cli-walk.mjs')];
  const { perPage, prefetch } = config;
  return [
    join(dist, 'cli.js'),
    ...(contender === 'jsonl, progress' ? [] : ['--quiet']),
    ...['papers', 'search', '--all', '--per-page', String(perPage), '--prefetch', String(prefetch)],
    ...(contender.endsWith('--fields') ? ['--fields', fields] : []),
    ...['--output', outFile],
  ];
}

async function runOnce(contender: Contender, url: string, folder: string) {
  const probe = join(folder, 'probe.json');
  const format =
    (['csv', 'tsv', 'parquet', 'sqlite'] as const).find((f) => contender.startsWith(f)) ?? 'jsonl';
  const outFile = join(folder, `out.${format}`);
  // A fresh file each run: a checkpoint left by the last one would make this one a resume; a
  // database left by the last would be upserted into.
  for (const file of [outFile, `${outFile}.checkpoint.json`, `${outFile}-wal`, `${outFile}-shm`])
    rmSync(file, { force: true });
  const [out, err] = [openSync('/dev/null', 'w'), openSync('/dev/null', 'w')];
  const { items, perPage, prefetch } = config;
  const env = {
    ...process.env,
    METRIC_BASE_URL: url,
    METRIC_API_KEY: 'sk_bench_cli',
    BENCH_DIST: dist,
    BENCH_PROBE_OUT: probe,
    BENCH_ITEMS: String(items),
    BENCH_PER_PAGE: String(perPage),
    BENCH_PREFETCH: String(prefetch),
    ...(contender === 'jsonl, progress' && { BENCH_FAKE_TTY: '1' }),
    ...(contender === 'script' && { BENCH_WRITE: outFile }),
  };
  const args = ['--import', join(root, 'bench/cli-probe.mjs'), ...argv(contender, outFile)];
  const child = spawn(process.execPath, args, { stdio: ['ignore', out, err], env });
  closeSync(out);
  closeSync(err);
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`${contender} exited with ${code}`);
  const measured = JSON.parse(readFileSync(probe, 'utf8')) as {
    seconds: number;
    cpuSeconds: number;
    maxRssMB: number;
  };
  if (contender === 'sdk walk') return { ...measured, bytes: 0 };
  if (format === 'parquet' || format === 'sqlite') {
    const written = recordsIn(format, outFile);
    if (written !== items) throw new Error(`${contender} wrote ${written} records, not ${items}`);
    return { ...measured, bytes: statSync(outFile).size };
  }
  const lines = readFileSync(outFile, 'utf8').split('\n').length - 1;
  const expected = items + (format === 'jsonl' ? 0 : 1);
  if (lines !== expected) throw new Error(`${contender} wrote ${lines} lines, not ${expected}`);
  return { ...measured, bytes: statSync(outFile).size };
}

/** The records in a Parquet file (its footer's count) or a SQLite database (its papers). */
function recordsIn(format: 'parquet' | 'sqlite', path: string): number {
  if (format === 'parquet') {
    const bytes = readFileSync(path);
    return Number(
      parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)).num_rows,
    );
  }
  const database = new DatabaseSync(path, { readOnly: true });
  try {
    return Number((database.prepare('SELECT count(*) AS n FROM papers').get() as { n: number }).n);
  } finally {
    database.close();
  }
}

/** `sync DB journals` of the whole mock (in-process, its default sizes): seconds, requests, records. */
async function syncJournals(folder: string) {
  const database = join(folder, 'sync.sqlite');
  const probe = join(folder, 'sync-probe.json');
  const args = ['--import', join(root, 'bench/cli-probe.mjs'), join(dist, 'cli.js'), '--mock', '--quiet'];
  const child = spawn(process.execPath, [...args, 'sync', database, 'journals'], {
    stdio: 'ignore',
    env: { ...process.env, BENCH_PROBE_OUT: probe },
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`sync journals exited with ${code}`);
  const { seconds, maxRssMB } = JSON.parse(readFileSync(probe, 'utf8')) as {
    seconds: number;
    maxRssMB: number;
  };
  const db = new DatabaseSync(database, { readOnly: true });
  try {
    const run = db.prepare('SELECT records, requests FROM sync_runs').get() as {
      records: number;
      requests: number;
    };
    const journals = (db.prepare('SELECT count(*) AS n FROM journals').get() as { n: number }).n;
    return { seconds, maxRssMB, records: run.records, requests: run.requests, journals };
  } finally {
    db.close();
  }
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

/** Median milliseconds to lay out and render a table of papers for a 120-column terminal. */
function tableRender(): number {
  const names = ['Zoë Bauer', 'Chen Schmidt', '山田 太郎', 'Ana Moreau'];
  const rows = Array.from({ length: table1000.rows }, (_, i) => ({
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
  for (let i = 0; i < table1000.renders; i++) {
    const started = performance.now();
    const layout = layoutTable(Object.keys(rows[0]!), rows, table1000.columns);
    const text = headerLine(layout) + rowLines(layout, rows) + hiddenLine(layout);
    times.push(performance.now() - started);
    if (text.length === 0) throw new Error('the table rendered nothing');
  }
  return median(times);
}

export async function measure() {
  const folder = mkdtempSync(join(tmpdir(), 'scholarly-bench-cli-'));
  let outputBytes = 0;
  const fileBytes: Partial<Record<Command, number>> = {};
  let sync: Awaited<ReturnType<typeof syncJournals>> | undefined;
  const runs: Array<{
    contender: Contender;
    round: number;
    seconds: number;
    cpuSeconds: number;
    maxRssMB: number;
    itemsPerSecond: number;
  }> = [];
  const synth = { kind: 'synth', total: config.items } as const;
  try {
    await withServer(synth, ({ url }) =>
      roundRobin(contenders, config.rounds, async (contender, round) => {
        const { bytes, ...measured } = await runOnce(contender, url, folder);
        if (contender === 'jsonl') outputBytes = bytes;
        if (contender === 'parquet' || contender === 'sqlite') fileBytes[contender] = bytes;
        runs.push({ contender, round, ...measured, itemsPerSecond: config.items / measured.seconds });
      }),
    );
    sync = await syncJournals(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  // Runs are pushed in round order, so any two contenders' lists pair up by round.
  const of = (c: Contender, key: 'itemsPerSecond' | 'maxRssMB' | 'cpuSeconds' | 'seconds') =>
    runs.filter((run) => run.contender === c).map((run) => run[key]);
  const ratios = (a: Contender, b: Contender) => ({
    speed: median(pairedRatios(of(a, 'itemsPerSecond'), of(b, 'itemsPerSecond'))),
    rss: median(pairedRatios(of(a, 'maxRssMB'), of(b, 'maxRssMB'))),
    cpu: median(pairedRatios(of(a, 'cpuSeconds'), of(b, 'cpuSeconds'))),
  });
  const { updateNs, drawNs } = progressParts();
  // The line's cost from its parts: an update per page, and a draw at most every 100 ms.
  const drawnSeconds = median(of('jsonl, progress', 'seconds'));
  const drawn = (config.items / config.perPage) * updateNs + (drawnSeconds * 10 + 1) * drawNs;
  const progress = (key: 'cpuSeconds' | 'seconds') =>
    median(pairedRatios(of('jsonl, progress', key), of('jsonl', key))) - 1;
  return {
    items: config.items,
    perPage: config.perPage,
    prefetch: config.prefetch,
    runs,
    fields,
    /** Per command ÷ the walk, paired per round: items per second, peak RSS, CPU time. */
    commands: Object.fromEntries(commands.map((c) => [c, ratios(c, 'sdk walk')])) as Record<
      Command,
      ReturnType<typeof ratios>
    >,
    /** The jsonl command ÷ the script an analyst would write instead. */
    script: ratios('jsonl', 'script'),
    tableMs: tableRender(),
    tableRows: table1000.rows,
    /** CPU time, not wall: on a shared machine a whole run's wall time moves by far more than the line costs. */
    progressCost: progress('cpuSeconds'),
    progressWall: progress('seconds'),
    progressBound: drawn / 1e9 / median(of('jsonl, progress', 'cpuSeconds')),
    updateNs,
    drawNs,
    outputBytes,
    /** The Parquet file's and the SQLite database's size ÷ the same records in jsonl. */
    sizes: {
      parquet: (fileBytes.parquet ?? 0) / outputBytes,
      sqlite: (fileBytes.sqlite ?? 0) / outputBytes,
    },
    sync: sync as NonNullable<typeof sync>,
  };
}

type CliResult = Awaited<ReturnType<typeof measure>>;

const roundsOf = (cli: CliResult) => Math.max(...cli.runs.map((run) => run.round)) + 1;

function commandRows(cli: CliResult): Row[] {
  return Object.entries(cli.commands).flatMap(([command, figures]) => {
    const [format, withFields] = command.split(', ');
    const what = `\`papers search --all -o FILE.${format}\`${withFields ? ` \`--fields ${cli.fields}\`` : ''}, ${count(cli.items)} items`;
    const speed = `${x(figures.speed)} (CPU time ${x(figures.cpu)} the walk's)`;
    return [
      format === 'parquet' || format === 'sqlite'
        ? atLeast(
            `${what}: items per second ÷ the SDK's walk (prefetch ${cli.prefetch}); file size ${x(cli.sizes[format])} the jsonl's`,
            speed,
            figures.speed,
            databaseSpeed,
            `${databaseSpeed}×`,
          )
        : atLeast(
            `${what}: items per second ÷ the SDK's walk (prefetch ${cli.prefetch})`,
            speed,
            figures.speed,
            0.9,
            '0.9×',
          ),
      atMost(`${what}: peak RSS ÷ the SDK's walk`, x(figures.rss), figures.rss, 1.2, '1.2×'),
    ];
  });
}

export const rows = (cli: CliResult): Row[] => [
  ...commandRows(cli),
  {
    what: `\`-o FILE.jsonl\`, ${count(cli.items)} items ÷ the script an analyst would write instead (the SDK's walk writing each item as a JSON line to the file): items per second, peak RSS`,
    figure: `${x(cli.script.speed)}, ${x(cli.script.rss)} (CPU time ${x(cli.script.cpu)})`,
  },
  {
    what: `\`sync DB journals\` of the whole mock (${count(cli.sync.journals)} journals, ${count(cli.sync.records)} records): requests, seconds, peak RSS`,
    figure: `${count(cli.sync.requests)} requests, ${cli.sync.seconds.toFixed(1)} s, ${cli.sync.maxRssMB.toFixed(0)} MB`,
  },
  {
    what: `the progress line's cost, from its parts (end to end, CPU: ${pct(cli.progressCost, 1)}, in the noise of ${roundsOf(cli)} runs)`,
    figure: pct(cli.progressBound, 3),
    target: `≤ ${pct(targets.progress, 0)}`,
    met: cli.progressBound <= targets.progress,
  },
  {
    what: `a table of ${count(cli.tableRows)} papers laid out and rendered for 120 columns (median)`,
    figure: `${cli.tableMs.toFixed(1)} ms`,
    target: `≤ ${targets.tableMs} ms`,
    met: cli.tableMs <= targets.tableMs,
  },
];

export function text(cli: CliResult) {
  const of = (contender: Contender) => cli.runs.filter((run) => run.contender === contender);
  const seconds = (contender: Contender) => of(contender).map((run) => run.seconds);
  const rows = [...new Set(cli.runs.map((run) => run.contender))].map((contender) => {
    const m = (key: 'seconds' | 'cpuSeconds' | 'maxRssMB') => median(of(contender).map((run) => run[key]));
    const speed = spread(pairedRatios(seconds('sdk walk'), seconds(contender)));
    const versus = contender === 'sdk walk' ? '1' : range(speed, (n) => x(n));
    return [
      contender,
      m('seconds').toFixed(3),
      m('cpuSeconds').toFixed(3),
      `${m('maxRssMB').toFixed(1)} MB`,
      versus,
    ];
  });
  return `## 9. The command line

bench/cli.ts: \`scholarly-metrics papers search --all --per-page ${cli.perPage} --prefetch ${cli.prefetch} -o FILE\` over
${count(cli.items)} items a server makes up (bench/server.ts), against the SDK's own walk of the same pages
(bench/cli-walk.mjs: \`for await\` over \`client.papers.search\`, nothing written); each run a fresh process timed
from inside (bench/cli-probe.mjs). ${roundsOf(cli)} rounds, round-robin, the first contender rotating; each ratio is paired
within its round, then the median taken. One run moves by much more than the gap measured here: the
quartiles show how much.

${table(['contender', 'seconds', 'CPU seconds', 'peak RSS', "speed ÷ the walk's (p25 to p75)"], rows)}`;
}

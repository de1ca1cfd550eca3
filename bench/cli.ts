/**
 * 9. The command line: `scholarly-metrics papers search --all -o FILE` in jsonl, csv and tsv (the
 * format from FILE's extension), with and without `--fields`, over pages a server makes up
 * (bench/server.ts), against the SDK's own walk of the same pages at the same prefetch
 * (bench/cli-walk.mjs), each a fresh process timed and measured from inside by bench/cli-probe.mjs.
 * Then the jsonl command with its progress line drawn (stderr made to look like a terminal) against
 * `--quiet`: what the line costs. Contenders round-robin, the first rotating. Last, in this process,
 * a table of 1,000 papers laid out and rendered for a 120-column terminal.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { headerLine, hiddenLine, layoutTable, rowLines } from '../src/cli/output/table.js';
import { Progress } from '../src/cli/progress.js';
import { cli as config } from './config.js';
import { dist, median, report, root, startServer } from './lib.js';

export type CliFormat = 'jsonl' | 'csv' | 'tsv';
/** A command writing `format`, every field or `--fields`. */
export type CliCommand = `${CliFormat}${'' | ', --fields'}`;
export type CliContender = 'sdk walk' | 'script' | CliCommand | 'jsonl, progress';

const commands: CliCommand[] = ['jsonl', 'jsonl, --fields', 'csv', 'csv, --fields', 'tsv', 'tsv, --fields'];

export interface CliRun {
  contender: CliContender;
  round: number;
  seconds: number;
  cpuSeconds: number;
  maxRssMB: number;
  itemsPerSecond: number;
}

export interface CliResult {
  items: number;
  perPage: number;
  prefetch: number;
  runs: CliRun[];
  fields: string;
  /**
   * Per command, per round: its items per second ÷ the walk's, peak RSS ÷ the walk's, CPU time ÷ the
   * walk's (what it adds: serializing, writing, checkpoints); then medians.
   */
  commands: Record<CliCommand, { speed: number; rss: number; cpu: number }>;
  /**
   * The jsonl command against the script an analyst would write instead (the SDK's walk writing each
   * item as a JSON line to the file): items per second, peak RSS and CPU time, command ÷ script.
   */
  script: { speed: number; rss: number; cpu: number };
  /** Milliseconds to lay out and render a table of `tableRows` papers, median of `tableRenders`. */
  tableMs: number;
  tableRows: number;
  /**
   * The progress line's cost: the command's CPU time with the line ÷ without − 1, per round, median.
   * CPU time, not wall: on a shared machine the wall time of a whole run moves by far more than 2 %.
   */
  progressCost: number;
  /** The same from wall times, for reference. */
  progressWall: number;
  /**
   * The line's cost from its parts, measured in this process: the command calls `update()` once a
   * page and draws at most every 100 ms, so over a run it spends pages × a skipped update + draws ×
   * a drawn one; as a share of the command's median CPU time.
   */
  progressBound: number;
  updateNs: number;
  drawNs: number;
  outputBytes: number;
}

const contenders: CliContender[] = ['sdk walk', 'script', ...commands, 'jsonl, progress'];

async function once(
  contender: CliContender,
  url: string,
  folder: string,
): Promise<{ seconds: number; cpuSeconds: number; maxRssMB: number; bytes: number }> {
  const probe = join(folder, 'probe.json');
  const walk = contender === 'sdk walk' || contender === 'script';
  const format = walk ? 'jsonl' : (contender.split(',')[0] as CliFormat);
  const outFile = join(folder, `out.${format}`);
  // A fresh file each run: a checkpoint left by the last one would make this one a resume.
  rmSync(outFile, { force: true });
  rmSync(`${outFile}.checkpoint.json`, { force: true });
  const out = openSync('/dev/null', 'w');
  const err = openSync('/dev/null', 'w');
  const args = walk
    ? [join(root, 'bench/cli-walk.mjs')]
    : [
        join(dist, 'cli.js'),
        ...(contender === 'jsonl, progress' ? [] : ['--quiet']),
        'papers',
        'search',
        '--all',
        '--per-page',
        String(config.perPage),
        '--prefetch',
        String(config.prefetch),
        ...(contender.endsWith('--fields') ? ['--fields', config.fields] : []),
        '--output',
        outFile,
      ];
  const child = spawn(process.execPath, ['--import', join(root, 'bench/cli-probe.mjs'), ...args], {
    stdio: ['ignore', out, err],
    env: {
      ...process.env,
      METRIC_BASE_URL: url,
      METRIC_API_KEY: 'sk_bench_cli',
      BENCH_DIST: dist,
      BENCH_PROBE_OUT: probe,
      BENCH_ITEMS: String(config.items),
      BENCH_PER_PAGE: String(config.perPage),
      BENCH_PREFETCH: String(config.prefetch),
      ...(contender === 'jsonl, progress' && { BENCH_FAKE_TTY: '1' }),
      ...(contender === 'script' && { BENCH_WRITE: outFile }),
    },
  });
  closeSync(out);
  closeSync(err);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${contender} exited with ${code}`);
  if (contender === 'sdk walk') return { ...probed(probe), bytes: 0 };
  const bytes = statSync(outFile).size;
  const lines = readFileSync(outFile, 'utf8').split('\n').length - 1;
  const expected = config.items + (format === 'jsonl' ? 0 : 1);
  if (lines !== expected) throw new Error(`${contender} wrote ${lines} lines, not ${expected}`);
  return { ...probed(probe), bytes };
}

function probed(probe: string): { seconds: number; cpuSeconds: number; maxRssMB: number } {
  return JSON.parse(readFileSync(probe, 'utf8')) as { seconds: number; cpuSeconds: number; maxRssMB: number };
}

async function main(): Promise<CliResult> {
  const server = await startServer({ kind: 'synth', total: config.items });
  const folder = mkdtempSync(join(tmpdir(), 'scholarly-bench-cli-'));
  const runs: CliRun[] = [];
  let outputBytes = 0;
  try {
    for (let round = 0; round < config.rounds; round++) {
      for (let i = 0; i < contenders.length; i++) {
        const contender = contenders[(i + round) % contenders.length]!;
        const { seconds, cpuSeconds, maxRssMB, bytes } = await once(contender, server.url, folder);
        if (contender === 'jsonl') outputBytes = bytes;
        runs.push({
          contender,
          round,
          seconds,
          cpuSeconds,
          maxRssMB,
          itemsPerSecond: config.items / seconds,
        });
      }
    }
  } finally {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  }
  const { updateNs, drawNs } = progressParts();
  const pick = (contender: CliContender, round: number) =>
    runs.find((run) => run.contender === contender && run.round === round)!;
  const rounds = [...Array(config.rounds).keys()];
  const per = (f: (round: number) => number) => median(rounds.map(f));
  return {
    items: config.items,
    perPage: config.perPage,
    prefetch: config.prefetch,
    runs,
    fields: config.fields,
    commands: Object.fromEntries(
      commands.map((command) => [
        command,
        {
          speed: per((r) => pick(command, r).itemsPerSecond / pick('sdk walk', r).itemsPerSecond),
          rss: per((r) => pick(command, r).maxRssMB / pick('sdk walk', r).maxRssMB),
          cpu: per((r) => pick(command, r).cpuSeconds / pick('sdk walk', r).cpuSeconds),
        },
      ]),
    ) as CliResult['commands'],
    script: {
      speed: per((r) => pick('jsonl', r).itemsPerSecond / pick('script', r).itemsPerSecond),
      rss: per((r) => pick('jsonl', r).maxRssMB / pick('script', r).maxRssMB),
      cpu: per((r) => pick('jsonl', r).cpuSeconds / pick('script', r).cpuSeconds),
    },
    progressCost: per((r) => pick('jsonl, progress', r).cpuSeconds / pick('jsonl', r).cpuSeconds - 1),
    progressWall: per((r) => pick('jsonl, progress', r).seconds / pick('jsonl', r).seconds - 1),
    tableMs: tableRender(),
    tableRows: config.tableRows,
    outputBytes,
    ...progressBound(runs, updateNs, drawNs),
    updateNs,
    drawNs,
  };
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

function progressBound(runs: CliRun[], updateNs: number, drawNs: number): { progressBound: number } {
  const drawn = runs.filter((run) => run.contender === 'jsonl, progress');
  const seconds = median(drawn.map((run) => run.seconds));
  const cpu = median(drawn.map((run) => run.cpuSeconds));
  const pages = config.items / config.perPage;
  const draws = seconds * 10 + 1;
  return { progressBound: (pages * updateNs + draws * drawNs) / 1e9 / cpu };
}

/** Median milliseconds to lay out and render a table of papers for a 120-column terminal. */
function tableRender(): number {
  const names = ['Zoë Bauer', 'Chen Schmidt', '山田 太郎', 'Ana Moreau'];
  const rows = Array.from({ length: config.tableRows }, (_, i) => ({
    id: 4000 + i,
    title: `Rethinking microbial coral reefs under uncertainty, part ${i} — ${names[i % 4]}'s view`,
    authors: `${names[i % 4]}, ${names[(i + 1) % 4]}`,
    doi: `10.5023/sm.263.2002.${String(i).padStart(6, '0')}`,
    year: 1990 + (i % 35),
    citations: (i * 7919) % 20_000,
    oa: i % 2 === 0,
    journal_id: 1 + (i % 400),
  }));
  const columns = Object.keys(rows[0]!);
  const times: number[] = [];
  let length = 0;
  for (let i = 0; i < config.tableRenders; i++) {
    const started = performance.now();
    const layout = layoutTable(columns, rows, 120);
    length += (headerLine(layout) + rowLines(layout, rows) + hiddenLine(layout)).length;
    times.push(performance.now() - started);
  }
  if (length === 0) throw new Error('the table rendered nothing');
  return median(times);
}

// `npx tsx bench/cli.ts --table`: the table's figure alone, without the walks.
if (process.argv.includes('--table'))
  console.log(JSON.stringify({ tableMs: tableRender(), tableRows: config.tableRows }));
else await report(main);

/**
 * 9. The command line: `scholarly-metrics papers search --all --format jsonl`, stdout to a file, over
 * pages a server makes up (bench/server.ts), against the SDK's own walk of the same pages at the same
 * prefetch (bench/cli-walk.mjs), each a fresh process timed and measured from inside by
 * bench/cli-probe.mjs. Then the same command with its progress line drawn (stderr made to look like
 * a terminal) against `--quiet`: what the line costs. Contenders round-robin, the first rotating.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Progress } from '../src/cli/progress.js';
import { cli as config } from './config.js';
import { dist, median, report, root, startServer } from './lib.js';

export type CliContender = 'sdk walk' | 'command, --quiet' | 'command, progress';

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
  /** Per round: the command's items per second ÷ the walk's, peak RSS ÷ the walk's; then medians. */
  speed: number;
  rss: number;
  /** The command's CPU time ÷ the walk's, per round, median: what it adds (serializing, writing). */
  cpu: number;
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

const contenders: CliContender[] = ['sdk walk', 'command, --quiet', 'command, progress'];

async function once(
  contender: CliContender,
  url: string,
  folder: string,
): Promise<{ seconds: number; cpuSeconds: number; maxRssMB: number; bytes: number }> {
  const probe = join(folder, 'probe.json');
  const outFile = join(folder, 'out.jsonl');
  const out = openSync(outFile, 'w');
  const err = openSync('/dev/null', 'w');
  const args =
    contender === 'sdk walk'
      ? [join(root, 'bench/cli-walk.mjs')]
      : [
          join(dist, 'cli.js'),
          ...(contender === 'command, --quiet' ? ['--quiet'] : []),
          'papers',
          'search',
          '--all',
          '--format',
          'jsonl',
          '--per-page',
          String(config.perPage),
          '--prefetch',
          String(config.prefetch),
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
      ...(contender === 'command, progress' && { BENCH_FAKE_TTY: '1' }),
    },
  });
  closeSync(out);
  closeSync(err);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${contender} exited with ${code}`);
  const bytes = statSync(outFile).size;
  if (contender !== 'sdk walk') {
    const lines = readFileSync(outFile, 'utf8').split('\n').length - 1;
    if (lines !== config.items) throw new Error(`${contender} wrote ${lines} lines, not ${config.items}`);
  }
  const measured = JSON.parse(readFileSync(probe, 'utf8')) as {
    seconds: number;
    cpuSeconds: number;
    maxRssMB: number;
  };
  return { ...measured, bytes };
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
        if (contender !== 'sdk walk') outputBytes = bytes;
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
    speed: per((r) => pick('command, --quiet', r).itemsPerSecond / pick('sdk walk', r).itemsPerSecond),
    rss: per((r) => pick('command, --quiet', r).maxRssMB / pick('sdk walk', r).maxRssMB),
    cpu: per((r) => pick('command, --quiet', r).cpuSeconds / pick('sdk walk', r).cpuSeconds),
    progressCost: per(
      (r) => pick('command, progress', r).cpuSeconds / pick('command, --quiet', r).cpuSeconds - 1,
    ),
    progressWall: per((r) => pick('command, progress', r).seconds / pick('command, --quiet', r).seconds - 1),
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
  const drawn = runs.filter((run) => run.contender === 'command, progress');
  const seconds = median(drawn.map((run) => run.seconds));
  const cpu = median(drawn.map((run) => run.cpuSeconds));
  const pages = config.items / config.perPage;
  const draws = seconds * 10 + 1;
  return { progressBound: (pages * updateNs + draws * drawNs) / 1e9 / cpu };
}

await report(main);

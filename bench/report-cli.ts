/** BENCHMARKS.md, section 9: the command line's walk to a file, against the SDK's own walk; a table. */
import type { CliCommand, CliContender, CliResult } from './cli.js';
import { targets } from './config.js';
import { count, pct, range, table, verdict, x } from './format.js';
import { median, pairedRatios, spread } from './lib.js';

export function cliRows(cli: CliResult | undefined): string[][] {
  if (cli === undefined) return [];
  const rows: string[][] = [];
  for (const [command, figures] of Object.entries(cli.commands) as [
    CliCommand,
    CliResult['commands'][CliCommand],
  ][]) {
    const [format, fields] = command.split(', ');
    const what = `\`papers search --all -o FILE.${format}\`${fields ? ` \`--fields ${cli.fields}\`` : ''}, ${count(cli.items)} items`;
    rows.push(
      [
        '9',
        `${what}: items per second ÷ the SDK's walk (prefetch ${cli.prefetch})`,
        `${x(figures.speed)} (CPU time ${x(figures.cpu)} the walk's)`,
        `≥ ${x(targets.cliSpeed, 1)}`,
        verdict(figures.speed >= targets.cliSpeed),
      ],
      [
        '9',
        `${what}: peak RSS ÷ the SDK's walk`,
        x(figures.rss),
        `≤ ${x(targets.cliRss, 1)}`,
        verdict(figures.rss <= targets.cliRss),
      ],
    );
  }
  rows.push(
    [
      '9',
      `\`-o FILE.jsonl\`, ${count(cli.items)} items ÷ the script an analyst would write instead (the SDK's walk writing each item as a JSON line to the file): items per second, peak RSS`,
      `${x(cli.script.speed)}, ${x(cli.script.rss)} (CPU time ${x(cli.script.cpu)})`,
      'none',
      '',
    ],
    [
      '9',
      `the progress line's cost, from its parts (end to end, CPU: ${pct(cli.progressCost, 1)}, in the noise of ${roundsOf(cli)} runs)`,
      pct(cli.progressBound, 3),
      `≤ ${pct(targets.cliProgress, 0)}`,
      verdict(cli.progressBound <= targets.cliProgress),
    ],
    [
      '9',
      `a table of ${count(cli.tableRows)} papers laid out and rendered for 120 columns (median)`,
      `${cli.tableMs.toFixed(1)} ms`,
      `≤ ${targets.cliTableMs} ms`,
      verdict(cli.tableMs <= targets.cliTableMs),
    ],
  );
  return rows;
}

/** Section 9's detail: each contender's medians, and how far the paired ratios spread over the rounds. */
export function cliSection(cli: CliResult | undefined): string {
  if (cli === undefined) return '';
  const rounds = roundsOf(cli);
  const of = (contender: CliContender) => cli.runs.filter((run) => run.contender === contender);
  const seconds = (contender: CliContender) => of(contender).map((run) => run.seconds);
  const contenders = [...new Set(cli.runs.map((run) => run.contender))];
  return `
## 9. The command line

bench/cli.ts: \`scholarly-metrics papers search --all --per-page ${cli.perPage} --prefetch ${cli.prefetch} -o FILE\` over
${count(cli.items)} items a server makes up (bench/server.ts), against the SDK's own walk of the same pages
(bench/cli-walk.mjs: \`for await\` over \`client.papers.search\`, nothing written); each run a fresh process timed
from inside (bench/cli-probe.mjs). ${rounds} rounds, round-robin, the first contender rotating; each ratio is paired
within its round, then the median taken. One run moves by much more than the gap measured here: the
quartiles show how much.

${table(
  ['contender', 'seconds', 'CPU seconds', 'peak RSS', "speed ÷ the walk's (p25 to p75)"],
  contenders.map((contender) => {
    const runs = of(contender);
    return [
      contender,
      median(runs.map((run) => run.seconds)).toFixed(3),
      median(runs.map((run) => run.cpuSeconds)).toFixed(3),
      `${median(runs.map((run) => run.maxRssMB)).toFixed(1)} MB`,
      // Runs are kept in round order, so the walk's and the contender's pair up by index.
      contender === 'sdk walk'
        ? '1'
        : range(spread(pairedRatios(seconds('sdk walk'), seconds(contender))), (n) => x(n)),
    ];
  }),
)}
`;
}

/** The rounds the results hold (saved results may come from a run with another setting). */
function roundsOf(cli: CliResult): number {
  return Math.max(...cli.runs.map((run) => run.round)) + 1;
}

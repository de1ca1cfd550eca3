/** BENCHMARKS.md, section 9: the command line's walk to a file, against the SDK's own walk; a table. */
import type { CliCommand, CliResult } from './cli.js';
import { cli as config, targets } from './config.js';
import { count, pct, verdict, x } from './format.js';

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
      `the progress line's cost, from its parts (end to end, CPU: ${pct(cli.progressCost, 1)}, in the noise of ${config.rounds} runs)`,
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

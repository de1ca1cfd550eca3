/** BENCHMARKS.md, section 9: the command line's walk to a file, against the SDK's own walk. */
import type { CliResult } from './cli.js';
import { cli as config, targets } from './config.js';
import { count, pct, verdict, x } from './format.js';

export function cliRows(cli: CliResult | undefined): string[][] {
  if (cli === undefined) return [];
  const what = `\`papers search --all --format jsonl\`, ${count(cli.items)} items to a file`;
  return [
    [
      '9',
      `${what}: items per second ÷ the SDK's walk (prefetch ${cli.prefetch})`,
      `${x(cli.speed)} (CPU time ${x(cli.cpu)} the walk's)`,
      `≥ ${x(targets.cliSpeed, 1)}`,
      verdict(cli.speed >= targets.cliSpeed),
    ],
    [
      '9',
      `${what}: peak RSS ÷ the SDK's walk`,
      x(cli.rss),
      `≤ ${x(targets.cliRss, 1)}`,
      verdict(cli.rss <= targets.cliRss),
    ],
    [
      '9',
      `the progress line's cost, from its parts (end to end, CPU: ${pct(cli.progressCost, 1)}, in the noise of ${config.rounds} runs)`,
      pct(cli.progressBound, 3),
      `≤ ${pct(targets.cliProgress, 0)}`,
      verdict(cli.progressBound <= targets.cliProgress),
    ],
  ];
}

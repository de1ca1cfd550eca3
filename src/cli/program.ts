/**
 * The `scholarly-metrics` command tree: a command per endpoint, grouped by resource as the client
 * is, plus `papers get-many`. Built with commander: subcommands with their own help, choices and
 * typed option parsers, unknown options refused with a suggestion, all in one dependency-free package.
 */
import { Argument, type Command, Option } from 'commander';
import { examples, Program } from './action.js';
import { colorChoices } from './color.js';
import { authorsGet } from './commands/authors-get.js';
import { authorsList } from './commands/authors-list.js';
import { countriesList } from './commands/countries-list.js';
import { journalsGet } from './commands/journals-get.js';
import { journalsList } from './commands/journals-list.js';
import { journalsPapers } from './commands/journals-papers.js';
import { journalsScore } from './commands/journals-score.js';
import { papersGet } from './commands/papers-get.js';
import { papersGetMany } from './commands/papers-get-many.js';
import { papersSearch } from './commands/papers-search.js';
import { subjectsList } from './commands/subjects-list.js';
import { completionScript, type Shell, shells } from './completion.js';
import type { RunIO } from './context.js';
import { UsageError } from './errors.js';
import { integer, text } from './options.js';
import { redisUrlVariable } from './redis.js';

function commandPath(command: Command): string[] {
  const path: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) path.unshift(at.name());
  return path;
}

/**
 * The command tree of one run, writing through `io`. To add a command: a file in commands/ exporting
 * `(parent: Command) => void`, listed in its group below; its action is `act(...)`, which hands it
 * the context (client, IO, signal).
 */
export function createProgram(version: string, io: RunIO): Command {
  const program = new Program('scholarly-metrics', io);
  // Help, version and commander's own errors go to the run's streams, not the process's.
  program.configureOutput({
    writeOut: (text) => io.stdout.write(text),
    writeErr: (text) => io.stderr.write(text),
    getOutHelpWidth: () => io.stdout.columns ?? 80,
    getErrHelpWidth: () => io.stderr.columns ?? 80,
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  });
  program
    .description(
      // One line: commander wraps it to the terminal's width.
      'The Scholarly Metrics API from a shell. The key comes from METRIC_API_KEY, the base URL from ' +
        'METRIC_BASE_URL or --base-url.',
    )
    .version(version)
    .option('--mock', 'run against the built-in mock API: no key, no network')
    .option('--base-url <url>', 'the API base URL (default: METRIC_BASE_URL)')
    .option(
      '--max-requests-per-minute <n>',
      'send at most n requests a minute (with --redis: every run together)',
      integer(1),
    )
    .option(
      '--redis <url>',
      `share the limits with every run and program on the key through this Redis (or ${redisUrlVariable})`,
    )
    .option(
      '--redis-max-concurrency <n>',
      'with --redis: requests in flight at once, across every run',
      integer(1),
    )
    .option(
      '--redis-prefix <prefix>',
      "with --redis: the quota's key prefix (default: scholarly-metrics)",
      text,
    )
    .addOption(
      new Option(
        '--color <when>',
        'colour on a terminal: auto (off with NO_COLOR, on with FORCE_COLOR), always, never',
      )
        .choices(colorChoices)
        .default('auto'),
    )
    .option('-q, --quiet', 'no progress line and no hints on stderr')
    .option('--debug', "on an error, the stack; and the SDK's debug log on stderr (key redacted)")
    .showHelpAfterError('(add --help for the options)')
    .showSuggestionAfterError()
    .exitOverride();
  examples(
    program,
    'scholarly-metrics --mock journals list',
    'scholarly-metrics journals list --format csv > journals.csv',
    'scholarly-metrics papers search --q climate --all --format jsonl --output climate.jsonl --resume',
    'scholarly-metrics --redis redis://localhost:6379 --max-requests-per-minute 600 papers get-many --input dois.txt',
  );
  const group = (name: string, description: string, ...commands: Array<(parent: Command) => void>) => {
    const parent = program.command(name).description(description);
    for (const add of commands) add(parent);
  };
  group(
    'journals',
    'journals: list, profile, papers, score history',
    journalsList,
    journalsGet,
    journalsPapers,
    journalsScore,
  );
  group('papers', 'papers: search, one by DOI, many by DOI', papersSearch, papersGet, papersGetMany);
  group('authors', 'authors: list, profile', authorsList, authorsGet);
  group('subjects', 'subject areas', subjectsList);
  group('countries', 'countries', countriesList);
  program
    .command('completion')
    .description('print a completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell').choices(shells))
    .action((shell: Shell) => {
      io.stdout.write(completionScript(program, shell));
    });
  examples(
    program.commands.at(-1)!,
    'scholarly-metrics completion bash > ~/.local/share/bash-completion/completions/scholarly-metrics',
  );
  // `help papers search` prints that subcommand's help: commander's own help command stops at the first word.
  program.helpCommand(false);
  program
    .command('help')
    .description('help for a command: help papers search')
    .argument('[command...]', 'the command and subcommand')
    .action((words: string[]) => {
      let at: Command = program;
      for (const word of words) {
        const child = at.commands.find(
          (command) => command.name() === word || command.aliases().includes(word),
        );
        if (child === undefined)
          throw new UsageError(
            `no command ${[...commandPath(at), word].join(' ')}: see scholarly-metrics --help`,
          );
        at = child;
      }
      at.outputHelp();
    });
  // Every command exits through the bin's handler: usage errors with 2, not commander's 1.
  const override = (command: Command): void => {
    command
      .exitOverride()
      .showHelpAfterError('(add --help for the options)')
      .configureOutput(program.configureOutput());
    for (const child of command.commands) override(child);
  };
  override(program);
  return program;
}

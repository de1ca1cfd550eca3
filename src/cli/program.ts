/**
 * The `scholarly-metrics` command tree: a command per endpoint, grouped by resource as the client
 * is, plus `papers get-many`. Built with commander: subcommands with their own help, choices and
 * typed option parsers, unknown options refused with a suggestion, all in one dependency-free package.
 */
import { Argument, type Command, Option } from 'commander';
import { examples, Program } from './action.js';
import { type ColorChoice, colorChoices, paintReportFor } from './color.js';
import { cliCommands } from './commands/index.js';
import { completionScript, type Shell, shells } from './completion.js';
import type { RunIO } from './context.js';
import type { CliCommand } from './endpoint-command.js';
import { UsageError } from './errors.js';
import { integer, text } from './options.js';
import { terminalDocument, terminalSafe } from './output/escape.js';
import { redisUrlVariable } from './redis.js';

/** What each group of commands is, in the program's help; a group not listed is described by its name. */
const groupDescriptions: Readonly<Record<string, string>> = {
  journals: 'journals: list, profile, papers, score history',
  papers: 'papers: search, one by DOI, many by DOI',
  authors: 'authors: list, profile',
  subjects: 'subject areas',
  countries: 'countries',
};

function commandPath(command: Command): string[] {
  const path: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) path.unshift(at.name());
  return path;
}

/**
 * The command tree of one run, writing through `io`, with `commands` under their groups. To add a
 * command: a file in commands/ exporting a `CliCommand` (for an endpoint of the API table, made by
 * `recordCommand`, `listCommand` or `walkCommand`), listed in commands/index.ts.
 */
export function createProgram(
  version: string,
  io: RunIO,
  commands: readonly CliCommand[] = cliCommands,
): Command {
  const program = new Program('scholarly-metrics', io);
  // Help, version and commander's own errors go to the run's streams, not the process's. Its errors
  // echo what was typed (`unknown command '…'`, an option's value), escaped as every echoed input is,
  // and begin with a red `error:` as the command's own do (`--color` counts when it came before).
  program.configureOutput({
    writeOut: (text) => io.stdout.write(text),
    writeErr: (text) => io.stderr.write(text),
    outputError: (text, write) =>
      write(
        paintReportFor(
          terminalDocument(text),
          program.getOptionValue('color') as ColorChoice | undefined,
          io,
        ),
      ),
    getOutHelpWidth: () => io.stdout.columns ?? 80,
    getErrHelpWidth: () => io.stderr.columns ?? 80,
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  });
  addProgramOptions(program, version);
  examples(
    program,
    'scholarly-metrics --mock journals list',
    'scholarly-metrics journals list --format csv > journals.csv',
    'scholarly-metrics papers search --q climate --all --format jsonl --output climate.jsonl --resume',
    'scholarly-metrics --redis redis://localhost:6379 --max-requests-per-minute 600 papers get-many --input dois.txt',
  );
  addCommands(program, commands);
  addCompletion(program, io);
  addHelpCommands(program);
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

/** `commands` under their groups, each group made where its first command is listed. */
function addCommands(program: Command, commands: readonly CliCommand[]): void {
  const groups = new Map<string, Command>();
  for (const { group, add } of commands) {
    let parent = groups.get(group);
    if (parent === undefined) {
      parent = program.command(group).description(groupDescriptions[group] ?? group);
      groups.set(group, parent);
    }
    add(parent);
  }
}

/** The options of the program itself, valid before or after the command, and `--version`. */
function addProgramOptions(program: Command, version: string): void {
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
      '--redis-cluster <urls>',
      'the same through a Redis Cluster: some of its nodes, comma-separated (redis://host:port,…)',
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
    .option('-q, --quiet', 'only errors on stderr: no progress line, hints, last word or per-id failures')
    .option('--debug', "on an error, the stack; and the SDK's debug log on stderr (key redacted)")
    .showHelpAfterError('(add --help for the options)')
    .showSuggestionAfterError()
    .exitOverride();
}

/** `completion bash|zsh|fish`: the script, written from the command tree. */
function addCompletion(program: Command, io: RunIO): void {
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
}

/**
 * `help papers search`, and in each group `journals help papers`: the help of the command the words
 * name, or a usage error naming the first word that is none. Commander's own help command stops at
 * the first word, and for an unknown one shows the group's help on stderr without saying why.
 */
function addHelpCommands(program: Command): void {
  for (const group of program.commands.filter((command) => command.commands.length > 0))
    addHelpCommand(group, `${group.name()} help ${group.commands[0]!.name()}`, 'the command');
  addHelpCommand(program, 'help papers search', 'the command and subcommand');
}

/** `help [command...]` under `parent`, its words read from there; `named` says what they name. */
function addHelpCommand(parent: Command, example: string, named: string): void {
  parent.helpCommand(false);
  parent
    .command('help')
    .description(`help for a command: ${example}`)
    .argument('[command...]', named)
    .action((names: string[]) => commandNamed(parent, names).outputHelp());
}

/** The command `names` lead to from `from`, or a usage error for the first name that leads nowhere. */
function commandNamed(from: Command, names: readonly string[]): Command {
  let at = from;
  for (const name of names) {
    const child = at.commands.find((command) => command.name() === name || command.aliases().includes(name));
    if (child === undefined)
      throw new UsageError(
        terminalSafe(`no command ${[...commandPath(at), name].join(' ')}: see scholarly-metrics --help`),
      );
    at = child;
  }
  return at;
}

/**
 * The fish completion script. Each completion is offered where the command line's path is exactly
 * its command's, told by a function of the script that reads the words before the cursor as the
 * command does (flags skipped, with their values): fish's `__fish_seen_subcommand_from` only asks
 * whether a word appears, so `journals papers` would count as the `papers` group.
 */
import type { Command, Option } from 'commander';
import {
  commandFields,
  fileArgumentIndexes,
  fileFlags,
  flagsOf,
  type Node,
  nodes,
  subcommandNames,
  subcommandsOf,
  valueFlags,
} from './completion-tree.js';

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The name of one of the script's functions: `__scholarly_metrics_at` for `at`. */
const functionName = (name: string, what: string) => `__${name.replace(/[^A-Za-z0-9]/g, '_')}_${what}`;

/** `NAME_at PATH [N [ARGS]]`: whether the command is PATH, with N arguments typed, those ARGS. */
function pathFunction(at: string, all: readonly Node[]): string {
  const steps = all
    .filter((node) => node.path.length > 0)
    .map((node) => quote(`${node.path.slice(0, -1).join(' ')}:${node.path.at(-1)}`));
  return `function ${at}
    set -l tokens (commandline -opc)
    set -l path ''
    set -l args
    set -l skip 0
    for word in $tokens[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        switch $word
            case ${valueFlags(all).join(' ')}
                set skip 1
                continue
            case '-*'
                continue
        end
        if contains -- "$path:$word" ${steps.join(' ')}
            set path (string trim -- "$path $word")
            set args
        else
            set -a args $word
        end
    end
    test "$path" = "$argv[1]"; or return 1
    set -q argv[2]; or return 0
    test (count $args) = "$argv[2]"; or return 1
    set -q argv[3]; or return 0
    test "$args" = "$argv[3]"
end`;
}

/**
 * `NAME_fields FIELDS`: the comma list's next field, each of FIELDS not in the token yet, after the
 * token's text up to its last comma (as fish's `__fish_complete_list` offers them, which offers every
 * field again); a `--fields=` before the list is kept there, not read as a field.
 */
function fieldsFunction(fields: string): string {
  return `function ${fields}
    set -l token (commandline -t)
    set -l typed (string replace -r -- '[^,]*$' '' "$token")
    set -l listed (string split -n , -- (string replace -r -- '^-[^=]*=' '' "$typed"))
    for field in (string split , -- $argv[1])
        contains -- $field $listed; or echo "$typed$field"
    end
end`;
}

function optionLine(name: string, where: string, command: Command, option: Option): string {
  const flags = flagsOf(option)
    .map((flag) => (flag.startsWith('--') ? `-l ${flag.slice(2)}` : `-s ${flag.slice(1)}`))
    .join(' ');
  const fields = option.long === '--fields' ? commandFields.get(command) : undefined;
  const value = option.argChoices
    ? ` -x -a ${quote(option.argChoices.join(' '))}`
    : fields !== undefined
      ? ` -x -a ${quote(`(${functionName(name, 'fields')} ${fields.join(',')})`)}`
      : option.required || option.optional
        ? fileFlags.includes(option.long ?? '')
          ? ' -r -F'
          : ' -x'
        : '';
  return `complete -c ${name}${where} ${flags}${value} -d ${quote(option.description)}`;
}

/** The lines of one command: its subcommands, its arguments' choices, its flags. */
function commandLines(name: string, at: string, { path, command }: Node): string[] {
  const here = `"${path.join(' ')}"`;
  const lines = subcommandsOf(command).map(
    (child) =>
      `complete -c ${name} -f -n ${quote(`${at} ${here} 0`)} -a ${child.name()} -d ${quote(child.description())}`,
  );
  command.registeredArguments.forEach((argument, index) => {
    if (argument.argChoices)
      lines.push(
        `complete -c ${name} -f -n ${quote(`${at} ${here} ${index}`)} -a ${quote(argument.argChoices.join(' '))}`,
      );
  });
  for (const index of fileArgumentIndexes(command))
    lines.push(`complete -c ${name} -F -n ${quote(`${at} ${here} ${index}`)}`);
  const where = path.length === 0 ? '' : ` -n ${quote(`${at} ${here}`)}`;
  for (const option of command.options) lines.push(optionLine(name, where, command, option));
  return lines;
}

/** `help <TAB>`: the commands, then the subcommands of the one named so far. */
function helpLines(name: string, at: string, all: readonly Node[]): string[] {
  return all
    .filter(({ command }) => subcommandNames(command).length > 0)
    .map(({ path, command }) => {
      const condition = `${at} help ${path.length}${path.length > 0 ? ` "${path.join(' ')}"` : ''}`;
      const children = subcommandNames(command).join(' ');
      return `complete -c ${name} -f -n ${quote(condition)} -a ${quote(children)}`;
    });
}

export function fishScript(program: Command): string {
  const name = program.name();
  const at = functionName(name, 'at');
  const all = nodes(program);
  const lines = [
    `# ${name} completion for fish: save as ~/.config/fish/completions/${name}.fish`,
    pathFunction(at, all),
    fieldsFunction(functionName(name, 'fields')),
    // No file names where nothing names a file (an id, a DOI, a search word): a file flag or argument
    // asks for them with -F.
    `complete -c ${name} -f`,
    ...all.flatMap((node) => commandLines(name, at, node)),
    ...helpLines(name, at, all),
  ];
  return `${lines.join('\n')}\n`;
}

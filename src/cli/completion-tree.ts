/**
 * The command tree as the completion scripts see it: each command's path, its flags, which flags
 * take a value, which flags and arguments name a file, and the field paths of `--fields`.
 */
import type { Command, Option } from 'commander';

/** Flags that name a file: the shell completes a path after them. */
export const fileFlags = ['--output', '-o', '--input', '--failed'];

/** Arguments that name a file, by name (`sync <database>`): the shell completes a path in their place. */
export const fileArguments = ['database'];

/** The arguments of `command` that name a file, by their index: `path:index` in the scripts. */
export function fileArgumentIndexes(command: Command): number[] {
  return command.registeredArguments.flatMap((argument, index) =>
    fileArguments.includes(argument.name()) ? [index] : [],
  );
}

/** The field paths each command's `--fields` takes, told by the code that adds the option. */
export const commandFields = new WeakMap<Command, readonly string[]>();

/** Tells completion the field paths `command`'s `--fields` takes. */
export function offerFields(command: Command, paths: readonly string[]): void {
  commandFields.set(command, paths);
}

export interface Node {
  path: string[];
  command: Command;
}

/**
 * The subcommands completion offers under `command`. A group's own `help` is left out: after `journals
 * help` the shell offers the group's commands, as after `journals`, and after `help journals` those
 * alone; the program's `help` stays, which the scripts complete with the commands it names.
 */
export function subcommandsOf(command: Command): readonly Command[] {
  if (command.parent === null) return command.commands;
  return command.commands.filter((child) => child.name() !== 'help');
}

/** The names of the subcommands completion offers under `command`. */
export function subcommandNames(command: Command): string[] {
  return subcommandsOf(command).map((child) => child.name());
}

export function nodes(program: Command): Node[] {
  const out: Node[] = [];
  const walk = (command: Command, path: string[]) => {
    out.push({ path, command });
    for (const child of subcommandsOf(command)) walk(child, [...path, child.name()]);
  };
  walk(program, []);
  return out;
}

export function flagsOf(option: Option): string[] {
  return [option.long, option.short].filter((flag): flag is string => flag !== undefined);
}

/** Every flag that takes a value, whatever the command: its value is neither a command nor an argument. */
export function valueFlags(all: readonly Node[]): string[] {
  const flags = all.flatMap(({ command }) =>
    command.options.filter((option) => option.required || option.optional).flatMap(flagsOf),
  );
  return [...new Set(flags)];
}

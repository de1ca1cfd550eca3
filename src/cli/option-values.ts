/**
 * The command line as commander should read it: each value of an option that takes one joined to it
 * where the value starts with `-` (`--q -quantum` → `--q=-quantum`, `-o -x.csv` → `-o-x.csv`).
 * Commander reads the program's own options anywhere in the line, short bundles included, before the
 * command's: `-quantum` would be `-q` (quiet) and a value `uantum`, `-Vienna` the version. Joined, the
 * value is read whole, as `--q=-quantum` is and as the command itself reads a value after its option.
 */
import type { Command, Option } from 'commander';

/** The option `word` names (`--name`, `-n`) among `command`'s and those of the commands above it. */
function optionNamed(command: Command | null, word: string): Option | undefined {
  for (let at = command; at !== null; at = at.parent) {
    const found = at.options.find((option) => option.long === word || option.short === word);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** `argv` with the values that start with `-` joined to their options; nothing after `--` changes. */
export function joinDashValues(program: Command, argv: readonly string[]): string[] {
  const joined: string[] = [];
  let command: Command = program;
  for (let at = 0; at < argv.length; at++) {
    const word = argv[at]!;
    if (word === '--') return joined.concat(argv.slice(at));
    const value = argv[at + 1];
    if (word.startsWith('-')) {
      // A required value is the next word, whatever it starts with; it names no command either.
      if (optionNamed(command, word)?.required && value !== undefined && value !== '--') {
        if (value.startsWith('-'))
          joined.push(word.startsWith('--') ? `${word}=${value}` : `${word}${value}`);
        else joined.push(word, value);
        at++;
        continue;
      }
    } else {
      const sub = command.commands.find((each) => each.name() === word || each.aliases().includes(word));
      if (sub !== undefined) command = sub;
    }
    joined.push(word);
  }
  return joined;
}

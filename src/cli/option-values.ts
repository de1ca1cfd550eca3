/**
 * The command line as commander should read it: each value of an option that takes one joined to it
 * where the value starts with `-` (`--q -quantum` → `--q=-quantum`, `-o -x.csv` → `-o-x.csv`, and in
 * a bundle, `-qo -x.csv` → `-qo-x.csv`). Commander reads the program's own options anywhere in the
 * line, short bundles included, before the command's: `-quantum` would be `-q` (quiet) and a value
 * `uantum`, `-Vienna` the version. Joined, the value is read whole, as `--q=-quantum` is and as the
 * command itself reads a value after its option.
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

/**
 * The options `word` gives, each by its long name, and whether the last of them takes the next word
 * as its value: `--quiet`; a bundle `-qo` (`--quiet`, `--output`, which takes it); `--q=x` (none left
 * to take). A word that names no option of `command` gives none.
 */
function optionsIn(command: Command, word: string): { given: string[]; takesNext: boolean } {
  if (word.startsWith('--')) {
    const option = optionNamed(command, word);
    return { given: option?.long ? [option.long] : [], takesNext: option?.required === true };
  }
  const given: string[] = [];
  for (let at = 1; at < word.length; at++) {
    const option = optionNamed(command, `-${word[at]}`);
    if (option === undefined) return { given: [], takesNext: false };
    if (option.long) given.push(option.long);
    // Its value is the rest of the bundle, or the next word when the bundle ends here.
    if (option.required || option.optional)
      return { given, takesNext: option.required && at === word.length - 1 };
  }
  return { given, takesNext: false };
}

/**
 * `argv` with the values that start with `-` joined to their options (nothing after `--` changes), and
 * the options given before `--`, by their long names.
 */
export function readLine(program: Command, argv: readonly string[]): { words: string[]; given: Set<string> } {
  const words: string[] = [];
  const given = new Set<string>();
  let command: Command = program;
  for (let at = 0; at < argv.length; at++) {
    const word = argv[at]!;
    if (word === '--') return { words: words.concat(argv.slice(at)), given };
    if (word.startsWith('-') && word.length > 1) {
      const options = optionsIn(command, word);
      for (const name of options.given) given.add(name);
      const value = argv[at + 1];
      // A required value is the next word, whatever it starts with; it names no command either.
      if (options.takesNext && value !== undefined && value !== '--') {
        if (value.startsWith('-')) words.push(word.startsWith('--') ? `${word}=${value}` : `${word}${value}`);
        else words.push(word, value);
        at++;
        continue;
      }
    } else {
      const sub = command.commands.find((each) => each.name() === word || each.aliases().includes(word));
      if (sub !== undefined) command = sub;
    }
    words.push(word);
  }
  return { words, given };
}

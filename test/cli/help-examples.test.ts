// Every example a command's --help shows that needs no file, pipe or other program runs against the
// built-in mock (`--mock`): what a user tries first works as shown.
import { describe, expect, it } from 'vitest';
import { run } from './helpers.js';

const groups = ['journals', 'papers', 'authors', 'subjects', 'countries'];

/** The command paths of the groups, as their --help lists them. */
async function commandPaths(): Promise<string[][]> {
  const paths: string[][] = [];
  for (const group of groups) {
    const help = (await run([group, '--help'])).stdout;
    const listed = help.slice(help.indexOf('Commands:')).split('\n').slice(1);
    for (const line of listed) {
      const verb = /^ {2}(\w[\w-]*)/.exec(line)?.[1];
      if (verb && verb !== 'help') paths.push([group, verb]);
    }
  }
  return paths;
}

/** The examples of `path`'s --help that stand alone: no file read or written, no pipe, no key. */
async function standAloneExamples(path: string[]): Promise<string[][]> {
  const help = (await run([...path, '--help'])).stdout;
  return (
    [...help.matchAll(/^ {2}\$ scholarly-metrics (.+)$/gm)]
      .map((match) => match[1]!)
      .filter(
        (line) => !/[|<>]|--input|-o |--output|--redis|\.(csv|tsv|jsonl|json|parquet|sqlite)\b/.test(line),
      )
      // A comment after the command (`  # one table, …`) is no argument.
      .map((line) => shellWords(line.replace(/\s+# .*$/, '')))
      .map((words) => words.filter((word) => word !== '--mock'))
  );
}

/**
 * `line`'s words as a shell takes them: a word in quotes is its text; an unquoted word must hold
 * nothing a shell acts on (`&` runs in the background, `?` and `*` expand, …), or pasting the example
 * would run something else.
 */
function shellWords(line: string): string[] {
  return (line.match(/'[^']*'|"[^"$`\\]*"|[^\s'"]+/g) ?? []).map((word) => {
    if (word.startsWith("'") || word.startsWith('"')) return word.slice(1, -1);
    expect(word, `an unquoted word of: ${line}`).not.toMatch(/[&;|<>()$`\\"*?#!{}[\]]/);
    return word;
  });
}

describe("the examples of each command's --help", { timeout: 120_000 }, () => {
  it('run against the mock, exit 0', async () => {
    const paths = await commandPaths();
    expect(paths.length).toBeGreaterThanOrEqual(10);
    let ran = 0;
    for (const path of paths) {
      for (const example of await standAloneExamples(path)) {
        const result = await run(['--mock', ...example]);
        expect(result.code, `${example.join(' ')}: ${result.stderr}`).toBe(0);
        ran += 1;
      }
    }
    expect(ran).toBeGreaterThanOrEqual(10);
  });
});

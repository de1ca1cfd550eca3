/**
 * An option's value that starts with `-`, written after it (`--q -quantum`): read whole, as
 * `--q=-quantum` is, never taken apart by the program's own options (`-q`, `-V`). After `--`, a word
 * is an argument, `--debug` included.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { readLine } from '../../src/cli/option-values.js';
import { useMockServer } from '../support.js';
import { run } from './helpers.js';

const mock = useMockServer({ sizes: { journals: 4, papers: 30, authors: 4 } });

/** What the mock was asked for papers, last. */
const lastSearch = () => {
  const path = mock.api.requests.filter((request) => request.path.includes('/papers?')).at(-1)?.path ?? '';
  return new URL(path, 'http://x').searchParams;
};

describe('a value that starts with -', () => {
  it.each([
    ['--q -quantum', ['--q', '-quantum']],
    ['--q=-quantum', ['--q=-quantum']],
  ])('%s searches for -quantum, quiet off', async (_, words) => {
    const result = await run(['papers', 'search', ...words, '--limit', '1'], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(lastSearch().get('q')).toBe('-quantum');
  });

  it('--q -Vienna searches for it: no version printed', async () => {
    const result = await run(['papers', 'search', '--q', '-Vienna', '--limit', '1'], {
      url: mock.server.url,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(lastSearch().get('q')).toBe('-Vienna');
  });

  it('--sort -quality sends -quality', async () => {
    await run(['papers', 'search', '--q', 'coral', '--sort', '-quality', '--limit', '1'], {
      url: mock.server.url,
    });
    expect(lastSearch().get('sort')).toBe('-quality');
  });

  it('after --, --debug is an argument: no stack on the error', async () => {
    const result = await run(['papers', 'get', '--', '--debug'], { url: mock.server.url });
    expect(result.stderr).toMatch(/doi must be a DOI/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('readLine', () => {
  const program = new Command().option('-q, --quiet').option('--debug').option('--base-url <url>');
  program.command('search').option('--q <term>').option('-o, --output <file>').option('--all');
  const words = (line: string[]) => readLine(program, line).words;
  const given = (line: string[]) => [...readLine(program, line).given].sort();

  it('joins a required value that starts with -, long, short or ending a bundle; leaves the rest and all after --', () => {
    const line = ['search', '--q', '-x', '-o', '-f.csv', '-qo', '-g.csv', '--all', '-q', '--', '--q', '-y'];
    expect(words(line)).toEqual([
      'search',
      '--q=-x',
      '-o-f.csv',
      '-qo-g.csv',
      '--all',
      '-q',
      '--',
      '--q',
      '-y',
    ]);
  });

  it("takes the word after a value's option as its value, not a command's name", () => {
    expect(words(['--base-url', 'search', 'search', '--q', 'a'])).toEqual([
      '--base-url',
      'search',
      'search',
      '--q',
      'a',
    ]);
  });

  it('names the options given, bundles read letter by letter; never a value, nor a word after --', () => {
    expect(given(['search', '-qo', 'out.csv', '--q', '--debug'])).toEqual(['--output', '--q', '--quiet']);
    expect(given(['search', '-oq.csv'])).toEqual(['--output']);
    expect(given(['search', '--', '--debug', '-q'])).toEqual([]);
  });
});

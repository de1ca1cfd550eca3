/**
 * The progress line on the terminal that shows the records too: stdout and stderr write to one
 * screen, as in a shell with neither redirected. What the screen shows at the end is the output and
 * the last word, nothing of the line, nothing of the output erased with it. In process, with a screen
 * kept in memory: `\r`, `\n` (a new line, as the terminal's line discipline makes it), the erase of
 * a line and text, cut into lines at the width.
 */
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { IO } from '../../src/cli/io.js';
import { run as runCommandLine } from '../../src/cli/main.js';
import { MOCK_DOIS } from '../../src/testing/index.js';
import { useMockServer } from '../support.js';
import { environment, run, runStoppedAt } from './helpers.js';

const eraseLine = '\u001b[2K';

/** What a terminal `columns` wide shows after `text`: its lines, trailing blanks and empty lines left out. */
function screen(text: string, columns: number): string[] {
  const lines: string[][] = [[]];
  let row = 0;
  let column = 0;
  const newLine = () => {
    row += 1;
    column = 0;
    lines[row] ??= [];
  };
  text.split(eraseLine).forEach((part, i) => {
    if (i > 0) lines[row] = [];
    if (part.includes('\u001b')) throw new Error(`no screen for ${JSON.stringify(part)}`);
    for (const char of part) {
      if (char === '\n') newLine();
      else if (char === '\r') column = 0;
      else {
        if (column === columns) newLine();
        (lines[row] as string[])[column] = char;
        column += 1;
      }
    }
  });
  const shown = lines.map((line) =>
    Array.from(line, (cell) => cell ?? ' ')
      .join('')
      .trimEnd(),
  );
  while (shown.at(-1) === '') shown.pop();
  return shown;
}

/** The lines of a document, without their ends (`\n`, `\r\n`). */
const linesOf = (text: string) =>
  text.split(/\r?\n/).filter((line, i, all) => line !== '' || i < all.length - 1);

/**
 * Runs the command line with stdout and stderr on one terminal `columns` wide; a clock that moves a
 * second a reading, so the progress line is drawn at every page.
 */
async function onOneTerminal(args: string[], columns: number) {
  let shared = '';
  let stdout = '';
  const terminal = (own: (text: string) => void) =>
    Object.assign(
      new Writable({
        decodeStrings: false,
        write(chunk: string | Buffer, _encoding, callback) {
          const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
          shared += text;
          own(text);
          callback();
        },
      }),
      { isTTY: true, columns },
    );
  let now = 0;
  const io: IO = {
    stdin: Readable.from([]),
    stdout: terminal((text) => (stdout += text)),
    stderr: terminal(() => {}),
    env: environment({}),
    colors: false,
    signal: new AbortController().signal,
    now: () => (now += 1000),
  };
  const code = await runCommandLine(['--mock', ...args], io);
  return { code, stdout, shared, screen: screen(shared, columns) };
}

describe('the progress line, on the terminal the output goes to', () => {
  it("is erased before a table's hidden-columns line", async () => {
    const shown = await onOneTerminal(['papers', 'search', 'climate', '--limit', '3'], 70);
    expect(shown.code).toBe(0);
    // The line was drawn: what is tested is its erasing.
    expect(shown.shared).toMatch(/3 of 3 papers · 1 request/);
    const hint = '3 columns hidden (citations, oa, journal_id): --fields to choose';
    expect(linesOf(shown.stdout).at(-1)).toBe(hint);
    expect(shown.screen).toEqual([...linesOf(shown.stdout), '3 papers']);
  });

  it('is erased before the header of an empty csv or tsv, and the [] of an empty json', async () => {
    for (const format of ['csv', 'tsv', 'json']) {
      const shown = await onOneTerminal(['papers', 'search', 'zzzqqq', '--format', format], 80);
      expect(shown.code, format).toBe(0);
      expect(shown.shared, format).toMatch(/0 of 0 papers · 1 request/);
      const first = format === 'json' ? '[]' : format === 'csv' ? 'id,title,authors' : 'id\ttitle\tauthors';
      expect(shown.screen[0]?.startsWith(first), format).toBe(true);
      expect(shown.screen, format).toEqual([...linesOf(shown.stdout), '0 papers match']);
    }
  });

  it('never erases a json record: the screen shows every one, as a pipe gets them', async () => {
    const args = ['papers', 'search', 'climate', '--limit', '25', '--format', 'json', '--fields', 'id'];
    const shown = await onOneTerminal(args, 80);
    expect(shown.code).toBe(0);
    // Drawn between the two pages.
    expect(shown.shared).toMatch(/20 of 25 papers · 2 requests/);
    const piped = await run(['--mock', ...args]);
    expect(shown.stdout).toBe(piped.stdout);
    expect(JSON.parse(piped.stdout)).toHaveLength(25);
    expect(shown.screen).toEqual([...linesOf(piped.stdout), '25 papers']);
  });

  it('get-many: its last paper in json is not erased either', async () => {
    const args = ['papers', 'get-many', ...MOCK_DOIS, '--format', 'json', '--fields', 'doi'];
    const shown = await onOneTerminal(args, 80);
    expect(shown.code).toBe(0);
    expect(shown.shared).toMatch(/4 of 4 DOIs · 4 requests/);
    const piped = await run(['--mock', ...args]);
    expect(shown.stdout).toBe(piped.stdout);
    expect(shown.screen).toEqual([...linesOf(piped.stdout), `${MOCK_DOIS.length} papers`]);
  });
});

describe('json on a terminal, a run stopped before its end', () => {
  const mock = useMockServer({ sizes: { journals: 5, papers: 100, authors: 10 } });

  it('still shows every record it received, the last held for its comma included', async () => {
    const args = [
      'papers',
      'search',
      '--per-page',
      '2',
      '--limit',
      '10',
      '--format',
      'json',
      '--fields',
      'id',
    ];
    const pageThree = (url: URL) => url.searchParams.get('page') === '3';
    const terminal = { stdout: true, columns: 100 };
    const stopped = await runStoppedAt(mock.server, args, pageThree, { terminal });
    expect(stopped.code).toBe(130);
    // Pages 1 and 2: four records, each on its line, though the array never ends.
    expect(stopped.stdout.match(/"id"/g)).toHaveLength(4);
  });
});

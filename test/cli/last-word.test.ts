/**
 * The last word on stderr: with --output what was written where (requests, time), on a terminal the
 * count, an empty result said as such, nothing with --quiet, nothing on a pipe without a file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unitFor } from '../../src/cli/counts.js';
import { lastWord } from '../../src/cli/last-word.js';
import { MOCK_DOIS } from '../../src/testing/index.js';
import { useMockServer } from '../support.js';
import { jsonLines, run } from './helpers.js';
import { clipboardName, expectNameEscaped } from './output/hostile.js';
import { scratch } from './resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 400, authors: 20 } });
const search = ['papers', 'search', '--q', 'coral', '--per-page', '5', '--all'];

/** What a terminal shows last: the text after the progress line's last erase. */
function afterProgress(stderr: string): string {
  return stderr.slice(stderr.lastIndexOf('\u001b[2K') + 1).replace(/^\[2K/, '');
}

/** A clock that reads 0 when the command starts and 800 ms on every later reading. */
function clock() {
  let calls = 0;
  return () => (calls++ === 0 ? 0 : 800);
}

describe('the last word', () => {
  it('with --output: wrote N of N papers to FILE (requests, time)', async () => {
    const { total } = await mock.client().papers.search({ q: 'coral', per_page: 5 });
    expect(total).toBeGreaterThan(5);
    const file = join(scratch(), 'coral.jsonl');
    const result = await run([...search, '--output', file], { url: mock.server.url, now: clock() });
    expect(result.code, result.stderr).toBe(0);
    const pages = Math.ceil(total / 5);
    expect(result.stderr).toBe(`wrote ${total} of ${total} papers to ${file} (${pages} requests, 0.8 s)\n`);
    expect(jsonLines(readFileSync(file, 'utf8'))).toHaveLength(total);
  });

  it('groups digits, and says 1 request', async () => {
    const file = join(scratch(), 'subjects.csv');
    const result = await run(['subjects', 'list', '--output', file], { url: mock.server.url, now: clock() });
    const subjects = await mock.client().subjects.list();
    expect(result.stderr).toBe(`wrote ${subjects.length} subjects to ${file} (1 request, 0.8 s)\n`);
    const many = await run([
      '--mock',
      'papers',
      'search',
      '--limit',
      '1200',
      '--output',
      join(scratch(), 'p.jsonl'),
    ]);
    expect(many.stderr).toMatch(/^wrote 1,200 of 1,200 papers to /);
    // One page on a terminal: the hint that there is more groups the total as well.
    const page = await run(['--mock', 'papers', 'search', '--per-page', '3'], { terminal: { stderr: true } });
    expect(afterProgress(page.stderr)).toBe('3 of 30,000 papers: --limit <n> or --all for more\n');
    // With --output, on a terminal too, what was written is said first.
    const onePage = join(scratch(), 'one-page.jsonl');
    const written = await run(['--mock', 'papers', 'search', '--per-page', '3', '-o', onePage], {
      terminal: { stderr: true },
      now: clock(),
    });
    expect(afterProgress(written.stderr)).toBe(
      `wrote 3 of 30,000 papers to ${onePage} (1 request, 0.8 s)\n3 of 30,000 papers: --limit <n> or --all for more\n`,
    );
  });

  it('counts every attempt sent: a retried 503 is two requests', async () => {
    const file = join(scratch(), 'subjects.jsonl');
    mock.api.faults.next({ status: 503 });
    const result = await run(['subjects', 'list', '--output', file], { url: mock.server.url, now: clock() });
    expect(result.code, result.stderr).toBe(0);
    const subjects = await mock.client().subjects.list();
    expect(result.stderr).toBe(`wrote ${subjects.length} subjects to ${file} (2 requests, 0.8 s)\n`);
  });

  it('on a terminal without --output: the count; on a pipe: nothing', async () => {
    const terminal = await run(search, { url: mock.server.url, terminal: { stderr: true } });
    const { total } = await mock.client().papers.search({ q: 'coral', per_page: 5 });
    expect(afterProgress(terminal.stderr)).toBe(`${total} papers\n`);
    const pipe = await run(search, { url: mock.server.url });
    expect(pipe.stderr).toBe('');
  });

  it('an empty result: 0 papers match, with --output or on a terminal', async () => {
    const empty = ['papers', 'search', '--q', 'zzqqxxnothing', '--all'];
    const file = join(scratch(), 'none.jsonl');
    const written = await run([...empty, '--output', file], { url: mock.server.url });
    expect(written.code, written.stderr).toBe(0);
    expect(written.stderr).toBe('0 papers match\n');
    const shown = await run(empty, { url: mock.server.url, terminal: { stderr: true } });
    expect(afterProgress(shown.stderr)).toBe('0 papers match\n');
  });

  it('get-many: the papers written of the DOIs given', async () => {
    const file = join(scratch(), 'papers.jsonl');
    const result = await run(['papers', 'get-many', ...MOCK_DOIS, '--output', file], {
      url: mock.server.url,
      now: clock(),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(
      `wrote ${MOCK_DOIS.length} of ${MOCK_DOIS.length} papers to ${file} (${MOCK_DOIS.length} requests, 0.8 s)\n`,
    );
  });

  it('--quiet: not a word', async () => {
    const file = join(scratch(), 'quiet.jsonl');
    const result = await run(['-q', ...search, '--output', file], {
      url: mock.server.url,
      terminal: { stderr: true },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });
});

describe('the last word says one record in the singular', () => {
  const said = (written: { count: number; total?: number; unit: string }, terminal = false) =>
    lastWord({ ...written, output: terminal ? undefined : 'x.csv' }, 1, 0.8, { terminal });

  it('the unit agrees with the number nearest it: the total when given, else the count', () => {
    expect(said({ count: 1, unit: 'journals' })).toBe('wrote 1 journal to x.csv (1 request, 0.8 s)');
    expect(said({ count: 1, total: 1, unit: 'papers' })).toMatch(/^wrote 1 of 1 paper to /);
    expect(said({ count: 1, total: 12, unit: 'papers' })).toMatch(/^wrote 1 of 12 papers to /);
    expect(said({ count: 2, unit: 'journals' })).toMatch(/^wrote 2 journals to /);
    // On a terminal only the count is said: the unit agrees with it, not with the total.
    expect(said({ count: 1, total: 12, unit: 'papers' }, true)).toBe('1 paper');
    // None shown of some there are (a page past the end, every DOI failed): the total is said too.
    expect(said({ count: 0, total: 1, unit: 'papers' }, true)).toBe('0 of 1 paper');
    expect(said({ count: 0, total: 1_188, unit: 'papers' }, true)).toBe('0 of 1,188 papers');
    expect(said({ count: 0, total: 0, unit: 'papers' }, true)).toBe('0 papers match');
  });

  it('into a file, none written of what there was (every DOI failed) is said with the file', () => {
    expect(said({ count: 0, total: 8, unit: 'papers' })).toBe(
      'wrote 0 of 8 papers to x.csv (1 request, 0.8 s)',
    );
    expect(said({ count: 0, total: 0, unit: 'papers' })).toBe('0 papers match');
  });

  it('every unit the commands pass has its singular', () => {
    const units = {
      authors: 'author',
      countries: 'country',
      DOIs: 'DOI',
      journals: 'journal',
      papers: 'paper',
      records: 'record',
      rows: 'row',
      'score points': 'score point',
      subjects: 'subject',
    };
    for (const [plural, singular] of Object.entries(units)) {
      expect(unitFor(1, plural)).toBe(singular);
      expect(unitFor(2, plural)).toBe(plural);
      expect(unitFor(0, plural)).toBe(plural);
    }
    // A unit given already singular, or one not known, is kept as given, never mangled.
    expect(unitFor(1, 'record')).toBe('record');
    expect(unitFor(1, 'constructor')).toBe('constructor');
  });

  it.each(['csv', 'parquet', 'sqlite'])(
    'journals score -o FILE.%s counts the score points it wrote, in every format',
    async (format) => {
      const points = (await mock.client().journals.score(2)).history.length;
      const file = join(scratch(), `score.${format}`);
      const result = await run(['journals', 'score', '2', '-o', file], {
        url: mock.server.url,
        now: clock(),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe(
        `wrote ${points} ${unitFor(points, 'score points')} to ${file} (1 request, 0.8 s)\n`,
      );
    },
  );

  it('journals list --limit 1 -o: wrote 1 journal', async () => {
    const file = join(scratch(), 'one.csv');
    const result = await run(['journals', 'list', '--limit', '1', '-o', file], {
      url: mock.server.url,
      now: clock(),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(`wrote 1 journal to ${file} (1 request, 0.8 s)\n`);
  });

  it('get-many of one DOI: wrote 1 of 1 paper', async () => {
    const file = join(scratch(), 'one.jsonl');
    const result = await run(['papers', 'get-many', MOCK_DOIS[0]!, '--output', file], {
      url: mock.server.url,
      now: clock(),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(`wrote 1 of 1 paper to ${file} (1 request, 0.8 s)\n`);
  });
});

describe('the last word names the file escaped', () => {
  it('wrote N … to FILE: a name holding OSC 52 is shown, never sent raw', async () => {
    const file = join(scratch(), clipboardName);
    const result = await run(['papers', 'get-many', MOCK_DOIS[0]!, '--output', file], {
      url: mock.server.url,
      terminal: { stderr: true },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(jsonLines(readFileSync(file, 'utf8'))).toHaveLength(1);
    expect(result.stderr).toMatch(/wrote 1 of 1 paper to .*evil\\e\]52;c;ZXZpbA==\\x07\.jsonl \(/);
    expectNameEscaped(afterProgress(result.stderr));
  });
});

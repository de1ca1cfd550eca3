/**
 * A record command given several ids: an id the API does not know (404) is named on stderr even when
 * a later id fails another way (a 400) and that error ends the command, with its own exit code. When
 * none is known, csv and tsv still get their header row.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/cli/errors.js';
import { useMockServer } from '../support.js';
import { jsonLines, run } from './helpers.js';
import { scratch } from './resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 50, authors: 20 } });
const ids = ['journals', 'get', '2', '999999', '3', '--format', 'jsonl'];

/** Queues the answers of three lookups: the first two real (found, then a 404), the third a 400. */
function badRequestThird(): void {
  mock.api.faults.next({ delayMs: 0, times: 2 }).next({ status: 400 });
}

describe('several ids: each id not found is named on stderr', () => {
  it('names the id not found, then the 400 ends the command as it would for one id', async () => {
    mock.api.faults.next({ status: 400 });
    const one = await run(['journals', 'get', '3', '--format', 'jsonl'], { url: mock.server.url });
    expect(one.code).toBe(exitCodes.failed);
    const oneError = one.stderr.trim().split('\n').at(-1)!;
    expect(oneError).toMatch(/^error: BadRequestError: 400 /);

    badRequestThird();
    const result = await run(ids, { url: mock.server.url });
    expect(mock.api.faults.pending).toBe(0);
    expect(result.code).toBe(one.code);
    expect(result.stderr).toBe(
      `999999: NotFoundError: 404 Not Found: No journal with id 999999\n${oneError}\n`,
    );
    // The command failed before writing: nothing half-written on stdout.
    expect(jsonLines(result.stdout)).toEqual([]);
  });

  it('-q: the 400 alone, no id listed', async () => {
    badRequestThird();
    const result = await run(['-q', ...ids], { url: mock.server.url });
    expect(result.code).toBe(exitCodes.failed);
    expect(result.stderr).toMatch(/^error: BadRequestError: 400 [^\n]*\n$/);
  });

  it('with no other error: the 404 listed, then exit 3 as before', async () => {
    const result = await run(ids, { url: mock.server.url });
    expect(result.code).toBe(exitCodes.partial);
    expect(result.stderr).toMatch(
      /^999999: NotFoundError: .+\nerror: RecordsFailedError: 1 of 3 ids were not found \(listed above\)/,
    );
    expect(jsonLines(result.stdout).map((row) => (row as { id: number }).id)).toEqual([2, 3]);
  });

  it('with --output: the last word, then the id not found, then exit 3', async () => {
    const file = join(scratch(), 'journals.jsonl');
    const result = await run(['journals', 'get', '2', '999999', '-o', file], { url: mock.server.url });
    expect(result.code).toBe(exitCodes.partial);
    expect(result.stderr).toMatch(
      /^wrote 1 record to .*journals\.jsonl \(2 requests, .+\)\n999999: NotFoundError: .+\nerror: RecordsFailedError: 1 of 2 ids/,
    );
  });
});

describe('several ids, none known: csv and tsv still get their header row', () => {
  it.each([
    ['journals', 'csv', '\r\n'],
    ['journals', 'tsv', '\n'],
    ['authors', 'csv', '\r\n'],
    ['authors', 'tsv', '\n'],
  ])('%s get to %s: the header a known id gets, then exit 3', async (group, format, lineEnd) => {
    const folder = scratch();
    const [none, some] = [join(folder, `none.${format}`), join(folder, `some.${format}`)];
    const known = await run([group, 'get', '2', '999999', '-o', some], { url: mock.server.url });
    expect(known.code).toBe(exitCodes.partial);
    const header = readFileSync(some, 'utf8').split(lineEnd)[0];
    expect(header).toMatch(/^id[,\t]name[,\t]/);
    const result = await run([group, 'get', '999998', '999999', '-o', none], { url: mock.server.url });
    expect(result.code).toBe(exitCodes.partial);
    expect(result.stderr).toContain('error: RecordsFailedError: 2 of 2 ids were not found');
    expect(readFileSync(none, 'utf8')).toBe(`${header}${lineEnd}`);
  });

  it.each([
    ['journals', 'get', 'records'],
    ['journals', 'score', 'score points'],
  ])(
    '%s %s into a file: the last word says what was written, not that nothing matched',
    async (...command) => {
      const [group, verb, unit] = command;
      const file = join(scratch(), 'none.csv');
      const result = await run([group, verb, '999998', '999999', '-o', file], { url: mock.server.url });
      expect(result.code).toBe(exitCodes.partial);
      expect(result.stderr).toMatch(new RegExp(`^wrote 0 ${unit} to .*none\\.csv \\(2 requests, `));
      expect(result.stderr).not.toContain('match');
    },
  );
});

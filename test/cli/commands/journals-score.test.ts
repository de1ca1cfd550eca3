import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../../support.js';
import { jsonLines, run } from '../helpers.js';
import { csvRecords } from '../records.js';
import { scratch } from '../resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 50, authors: 20 } });

describe('scholarly-metrics journals score', () => {
  it('gives the data alone off a terminal', async () => {
    const expected = await mock.client().journals.score(4);
    const result = await run(['journals', 'score', '4'], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(expected);
  });

  it('with --format table: the fields and the history as a table, no chart', async () => {
    const { current, history } = await mock.client().journals.score(4);
    const result = await run(['journals', 'score', '4', '--format', 'table'], { url: mock.server.url });
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^current +${current}$`));
    expect(lines).toContain('DATE        SCORE');
    // Scores are numbers: right-aligned under their header.
    expect(lines).toContain(`${history[0]!.date}  ${String(history[0]!.score).padStart(5)}`);
    expect(result.stdout).not.toMatch(/[┤╮╯]/);
  });

  it('shows an example in --help', async () => {
    expect((await run(['journals', 'score', '--help'])).stdout).toContain(
      '$ scholarly-metrics journals score 42',
    );
  });
});

describe('scholarly-metrics journals score with several ids', () => {
  it('csv: one header, a row per point of each journal, each with its journal_id', async () => {
    const [two, five] = await Promise.all([mock.client().journals.score(2), mock.client().journals.score(5)]);
    const result = await run(['journals', 'score', '2', '5', '--format', 'csv'], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.match(/journal_id,date,score/g)).toHaveLength(1);
    const expected = [
      ...two.history.map((point) => ({ journal_id: '2', date: point.date, score: String(point.score) })),
      ...five.history.map((point) => ({ journal_id: '5', date: point.date, score: String(point.score) })),
    ];
    expect(csvRecords(result.stdout)).toEqual(expected);
  });

  it('json: an array of the records, each with its journal_id first', async () => {
    const two = await mock.client().journals.score(2);
    const result = await run(['journals', 'score', '2', '3', '--format', 'json'], { url: mock.server.url });
    const records = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(records).toHaveLength(2);
    expect(records[0]).toEqual({ journal_id: 2, ...two });
    expect(Object.keys(records[1]!)[0]).toBe('journal_id');
  });

  it('an id not found: named on stderr, the others written, exit 3', async () => {
    const result = await run(['journals', 'score', '2', '999999', '3', '--format', 'jsonl'], {
      url: mock.server.url,
    });
    expect(result.code).toBe(3);
    const ids = new Set(jsonLines(result.stdout).map((row) => (row as { journal_id: number }).journal_id));
    expect([...ids]).toEqual([2, 3]);
    expect(result.stderr).toMatch(
      /^999999: NotFoundError: .+\nerror: RecordsFailedError: 1 of 3 ids were not found/,
    );
  });

  it('each id is checked as one is: a usage error (exit 2) before anything is sent', async () => {
    const result = await run(['journals', 'score', '2', 'x'], { url: mock.server.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('expected a whole number');
  });

  it('the last word counts the rows written: wrote N score points', async () => {
    const { history } = await mock.client().journals.score(4);
    const file = join(scratch(), 'score.csv');
    const result = await run(['journals', 'score', '4', '-o', file], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`^wrote ${history.length} score points to .*score\\.csv `));
    expect(csvRecords(readFileSync(file, 'utf8'))).toHaveLength(history.length);
  });
});

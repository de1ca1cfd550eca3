/**
 * A one-request command's `--output` naming a file a harvest left unfinished (its checkpoint beside
 * it): refused before any request, the file and its checkpoint as they were, so that the harvest can
 * still be resumed rather than cut by a checkpoint that no longer describes the file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support.js';
import { run } from './helpers.js';
import { scratch } from './resume.js';

const mock = useMockServer({ sizes: { journals: 6, papers: 60, authors: 5 } });

describe('a one-request command over an unfinished harvest', () => {
  it.each([
    ['journals list', ['journals', 'list'], 'out.jsonl'],
    ['journals get', ['journals', 'get', '2'], 'out.csv'],
    ['journals get, as Parquet', ['journals', 'get', '2'], 'out.parquet'],
    ['journals get of several ids', ['journals', 'get', '2', '5'], 'out.jsonl'],
    ['journals score of several ids, as Parquet', ['journals', 'score', '2', '5'], 'out.parquet'],
  ])('%s is refused (exit 2), the harvest left to resume', async (_name, command, name) => {
    const file = join(scratch(), name);
    const checkpoint = `${file}.checkpoint.json`;
    writeFileSync(file, 'the first pages of a harvest\n');
    writeFileSync(checkpoint, JSON.stringify({ complete: false }));
    const asked = mock.api.requests.length;
    const result = await run([...command, '-o', file], { url: mock.server.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: ${file} holds an unfinished run: continue it with its command and --resume, or write elsewhere\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe('the first pages of a harvest\n');
    expect(existsSync(checkpoint)).toBe(true);
    expect(mock.api.requests.length).toBe(asked);
  });

  it.each([
    ['journals list', ['journals', 'list'], 'done.jsonl', 6],
    ['journals get of several ids', ['journals', 'get', '2', '5'], 'done.jsonl', 2],
    ['journals get, as Parquet', ['journals', 'get', '2'], 'done.parquet', undefined],
  ])(
    '%s writes over a file whose harvest finished, and takes its checkpoint away',
    async (_name, command, name, lines) => {
      const file = join(scratch(), name);
      const checkpoint = `${file}.checkpoint.json`;
      writeFileSync(file, 'an old harvest\n');
      writeFileSync(checkpoint, JSON.stringify({ complete: true }));
      const result = await run([...command, '-o', file], { url: mock.server.url });
      expect(result.code, result.stderr).toBe(0);
      if (lines !== undefined)
        expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(lines);
      // Left there, it would make a `--resume` of the harvest say this file is the harvest, complete.
      expect(existsSync(checkpoint)).toBe(false);
    },
  );

  it('keeps the finished harvest and its checkpoint when the request fails', async () => {
    const file = join(scratch(), 'kept.jsonl');
    const checkpoint = `${file}.checkpoint.json`;
    writeFileSync(file, 'an old harvest\n');
    writeFileSync(checkpoint, JSON.stringify({ complete: true }));
    const result = await run(['journals', 'get', '999999', '-o', file], { url: mock.server.url });
    expect(result.code).not.toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('an old harvest\n');
    expect(existsSync(checkpoint)).toBe(true);
  });
});

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

  it('writes over a file whose harvest finished, as before', async () => {
    const file = join(scratch(), 'done.jsonl');
    writeFileSync(file, 'an old harvest\n');
    writeFileSync(`${file}.checkpoint.json`, JSON.stringify({ complete: true }));
    const result = await run(['journals', 'list', '-o', file], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(6);
  });
});

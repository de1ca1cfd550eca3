/**
 * `papers get-many`: a `--failed` holding a database or Parquet file, and an `--input` that is the
 * file of `--output` or `--failed`, are refused before anything is read, written or sent.
 */

import { linkSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { run } from '../helpers.js';
import { scratch } from '../resume.js';

/** Runs get-many with `flags`, which must be refused with `message`, `file` left as it was. */
async function refused(flags: string[], file: string, message: string) {
  const before = readFileSync(file);
  const result = await run(['--mock', 'papers', 'get-many', ...flags]);
  expect(result.stderr).toBe(`error: ${message}\n`);
  expect(result.code).toBe(2);
  expect(readFileSync(file)).toEqual(before);
}

describe('papers get-many, its files apart', () => {
  it('refuses a --failed that is a SQLite database, which its tsv would write over', async () => {
    const failed = join(scratch(), 'metrics.sqlite');
    const database = new DatabaseSync(failed);
    database.exec('CREATE TABLE papers (id INTEGER PRIMARY KEY)');
    database.close();
    const message = `--failed ${failed} is a SQLite database, which this run would write over: give --failed a file of its own`;
    await refused(['10.9/nope', '--failed', failed], failed, message);
  });

  it('refuses a --failed that is a Parquet file', async () => {
    const failed = join(scratch(), 'old.parquet');
    writeFileSync(failed, 'PAR1 and the rest of a Parquet file');
    const message = `--failed ${failed} is a Parquet file, which this run would write over: give --failed a file of its own`;
    await refused(['10.9/nope', '--failed', failed], failed, message);
  });

  it.each([
    ['--output', (file: string) => ['-o', file]],
    ['--failed', (file: string) => ['--failed', file]],
  ])('refuses an --input that is the file of %s, the list kept', async (flag, flags) => {
    const list = join(scratch(), 'dois.txt');
    writeFileSync(list, '10.1000/a\n10.1000/b\n');
    const message = `--input and ${flag} name one file (${list}): give each a file of its own`;
    await refused(['--input', list, ...flags(list)], list, message);
  });

  it('sees one file under two names: a symbolic link (to a file not made yet too) and a hard link', async () => {
    const folder = scratch();
    const output = join(folder, 'papers.tsv');
    const failed = join(folder, 'failed.tsv');
    symlinkSync(output, failed);
    const result = await run(['--mock', 'papers', 'get-many', '10.9/nope', '-o', output, '--failed', failed]);
    expect(result.stderr).toBe(
      `error: --failed and --output name one file (${failed}): give --failed a file of its own\n`,
    );
    expect(result.code).toBe(2);
    const list = join(folder, 'dois.txt');
    writeFileSync(list, '10.1000/a\n');
    const linked = join(folder, 'also-dois.txt');
    linkSync(list, linked);
    const message = `--input and --output name one file (${list}): give each a file of its own`;
    await refused(['--input', list, '-o', linked], list, message);
  });
});

/**
 * `--input` files as analysts export them: Excel's "Unicode text" (UTF-16), a JSON array (the tool's own
 * `-o papers.json`, a reference manager's CSL JSON), lone CR line ends (Excel for Mac), a byte order
 * mark, a wide table; and files that are no text at all (a spreadsheet, a Parquet file, a database).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readDois, readInput } from '../../src/cli/doi-input.js';
import { UsageError } from '../../src/cli/errors.js';
import { tsvField } from '../../src/cli/output/cells.js';
import { run } from './helpers.js';
import { scratch } from './resume.js';

const source = { stdin: Readable.from([]), signal: new AbortController().signal };

/** `bytes` written to `name` in a folder of the test's own, read as `--input` reads it. */
async function readFile(name: string, bytes: Buffer): Promise<string> {
  const path = join(scratch(), name);
  writeFileSync(path, bytes);
  return readInput(path, source);
}

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) =>
  Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);

describe('--input as exported', () => {
  it('reads UTF-16 with its byte order mark, little- or big-endian (Excel’s "Unicode text")', async () => {
    const text = 'doi\r\n10.1/a\r\n10.1/é\r\n';
    expect(await readFile('dois.txt', utf16le(text))).toBe(text);
    expect(await readFile('dois.txt', utf16be(text))).toBe(text);
    const table = await readFile('sheet.tsv', utf16le('DOI\tTitle\r\n10.1/a\tA\r\n'));
    expect(readDois(table, 'sheet.tsv').entries.map((entry) => entry.doi)).toEqual(['10.1/a']);
  });

  it.each([
    ['an .xlsx spreadsheet', 'sheet.xlsx', Buffer.from('PK\x03\x04rest of a zip', 'latin1'), 'a zip archive'],
    ['a Parquet file', 'papers.parquet', Buffer.from('PAR1rest'), 'a Parquet file'],
    ['a SQLite database', 'papers.db', Buffer.from('SQLite format 3\0rest'), 'a SQLite database'],
  ])('refuses %s, saying what to give instead', async (_what, name, bytes, said) => {
    const error = await readFile(name, bytes).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(
      new RegExp(`^--input .*${name} is ${said}.*, not text: give the DOIs as csv, tsv, JSON or one a line`),
    );
  });

  it('reads a JSON array: records (the tool’s own -o FILE.json), CSL JSON’s "DOI", or DOIs as strings', () => {
    const own = JSON.stringify([{ doi: '10.1/a', title: 'A' }, { doi: '10.1/b' }, { title: 'no doi' }]);
    expect(readDois(own, 'papers.json')).toMatchObject({ blank: 1, noun: 'entry' });
    expect(readDois(own, 'papers.json').entries.map((entry) => entry.doi)).toEqual(['10.1/a', '10.1/b']);
    const csl = JSON.stringify([{ type: 'article-journal', DOI: '10.1/C' }]);
    expect(readDois(csl, 'zotero.json').entries.map((entry) => entry.doi)).toEqual(['10.1/C']);
    // Standard input: its first line opens an array.
    expect(readDois('[\n  "10.1/d",\n  "doi:10.1/e"\n]\n', '-').entries.map((entry) => entry.doi)).toEqual([
      '10.1/d',
      '10.1/e',
    ]);
    expect(() => readDois('{"doi":"10.1/a"}', 'one.json')).toThrow(
      'is JSON, but no array of records or DOIs',
    );
    expect(() => readDois('[{"doi":', 'cut.json')).toThrow('--input cut.json is not JSON');
  });

  it('finds a JSON lines field in any letter case, as a table’s column', () => {
    expect(readDois('{"DOI":"10.1/a"}\n', 'csl.jsonl').entries.map((entry) => entry.doi)).toEqual(['10.1/a']);
  });

  it('reads lone CR line ends (Excel for Mac), in a list and in a table', () => {
    const dois = (text: string, name: string) => readDois(text, name).entries.map((entry) => entry.doi);
    expect(dois('10.1/a\r10.1/b\r', 'dois.txt')).toEqual(['10.1/a', '10.1/b']);
    expect(dois('doi,title\r10.1/a,A\r10.1/b,B\r', 'dois.csv')).toEqual(['10.1/a', '10.1/b']);
  });

  it('reads a csv separated by ; (Excel where , is the decimal mark), and one whose first line is blank', () => {
    const dois = (text: string, name: string) => readDois(text, name).entries.map((entry) => entry.doi);
    expect(dois('DOI;Title\n10.1/a;"A; b"\n', 'sheet.csv')).toEqual(['10.1/a']);
    expect(dois('"Title, full";DOI\nA;10.1/b\n', 'sheet.csv')).toEqual(['10.1/b']);
    expect(dois('DOI;Title\n10.1/a;A\n', '-')).toEqual(['10.1/a']);
    // Standard input whose first line is a DOI holding a ; is a list, not a table.
    expect(dois('10.1002/(SICI)1;2-H\n10.1/c\n', '-')).toEqual(['10.1002/(SICI)1;2-H', '10.1/c']);
    expect(dois('10.1002/(SICI)1,2\n10.1/c\n', '-')).toEqual(['10.1002/(SICI)1,2', '10.1/c']);
    expect(dois('\ndoi,title\n10.1/a,A\n', '-')).toEqual(['10.1/a']);
    // A SICI DOI holds a ; of its own: a header with a comma keeps the comma the separator.
    expect(dois('doi,title\n10.1002/(SICI)1;2-H,A\n', 'x.csv')).toEqual(['10.1002/(SICI)1;2-H']);
  });

  it('reads back what the tool’s own tsv escaped (a --failed file fed to the retry)', () => {
    const doi = '10.1/a\\b';
    const written = `doi\terror\n${tsvField(doi)}\tNotFoundError\n`;
    expect(written).toContain('a\\\\b');
    expect(readDois(written, 'failed.tsv').entries.map((entry) => entry.doi)).toEqual([doi]);
  });

  it('counts R’s NA (a missing value in write.csv) as a blank cell, as pandas’ empty one', () => {
    expect(readDois('"","doi"\n"1","10.1/a"\n"2",NA\n', 'r.csv')).toMatchObject({
      entries: [{ doi: '10.1/a', input: '10.1/a' }],
      blank: 1,
    });
  });

  it('keeps no byte order mark in the first cell, whatever the kind (--keep-input writes it)', () => {
    expect(readDois('\uFEFF10.1/a\n', 'dois.txt').entries).toEqual([{ doi: '10.1/a', input: '10.1/a' }]);
  });

  it('reads a wide table’s column, the others’ cells left behind', () => {
    const wide = Array.from({ length: 30 }, (_, i) => `c${i}`);
    const header = [...wide, 'doi'].join(',');
    const rows = ['10.1/a', '', '10.1/b'].map((doi) => [...wide.map(() => 'x'.repeat(20)), doi].join(','));
    const list = readDois(['', header, ...rows, ''].join('\n'), 'wide.csv');
    expect(list.entries.map((entry) => entry.doi)).toEqual(['10.1/a', '10.1/b']);
    expect(list.blank).toBe(1);
  });

  it('the bin: a JSON file it wrote itself is a list it reads', async () => {
    const file = join(scratch(), 'papers.json');
    const wrote = await run(['--mock', 'papers', 'search', '--limit', '3', '-o', file]);
    expect(wrote.code, wrote.stderr).toBe(0);
    const read = await run(['--mock', 'papers', 'get-many', '--input', file, '--fields', 'doi']);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout.trim().split('\n')).toHaveLength(3);
  });

  it('the bin: what it skipped and what failed, counted as every count it says (1,001)', async () => {
    const file = join(scratch(), 'dois.txt');
    const missing = Array.from({ length: 1_001 }, (_, i) => `10.9999/missing-${i}`);
    writeFileSync(file, `${'\n'.repeat(1_001)}${missing.join('\n')}\n`);
    const result = await run([
      '--mock',
      'papers',
      'get-many',
      '--input',
      file,
      '-o',
      join(scratch(), 'out.jsonl'),
    ]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('skipped 1,001 blank lines');
    expect(result.stderr).toContain('1,001 of 1,001 DOIs failed');
  });
});

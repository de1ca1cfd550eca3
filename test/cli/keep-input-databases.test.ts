/**
 * `papers get-many --keep-input` into the database formats: Parquet's first column is `input` (text)
 * with or without `--fields`, holding the cells csv, tsv and jsonl write; SQLite refuses it (exit 2)
 * with or without `--fields`, before anything is sent; and a Parquet run stopped and resumed ends as
 * one never stopped, its `input` column included.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support.js';
import { jsonLines, run, runStoppedAt } from './helpers.js';
import { parquetBytes, parquetRows } from './output/hyparquet.js';
import { csvRecords } from './records.js';
import { scratch } from './resume.js';

/** A list as people have it: a header, a resolver form, a DOI not found, a blank line, a repeat. */
const list = 'doi\nhttps://doi.org/10.1000/ABC/DEF\n10.9999/nope\n10.5555/üñí-ç\n\n10.1000/abc/def\n';
/** The cells kept: the not-found DOI writes no paper, the repeat is looked up once. */
const kept = ['https://doi.org/10.1000/ABC/DEF', '10.5555/üñí-ç'];

/** Each column of a Parquet file: its name and its physical and converted types. */
function parquetColumns(path: string): string[] {
  return parquetMetadata(parquetBytes(path))
    .schema.slice(1)
    .map((element) => `${element.name}: ${element.type} ${element.converted_type ?? ''}`.trim());
}

/** `papers get-many --mock --input` of `list`, writing `output`, with `more` options. */
async function getMany(folder: string, output: string, ...more: string[]) {
  const input = join(folder, 'dois.txt');
  writeFileSync(input, list);
  const file = join(folder, output);
  const result = await run(['--mock', 'papers', 'get-many', '--input', input, ...more, '-o', file]);
  return { result, file };
}

describe('papers get-many --keep-input into a file', { timeout: 120_000 }, () => {
  it('Parquet has a first text column input with or without --fields, the cells csv, tsv and jsonl write', async () => {
    const folder = scratch();
    const cells: Record<string, unknown[]> = {};
    for (const format of ['csv', 'tsv', 'jsonl', 'parquet']) {
      const { result, file } = await getMany(folder, `gm.${format}`, '--keep-input');
      expect(result.code, result.stderr).toBe(3);
      const text = format === 'parquet' ? '' : readFileSync(file, 'utf8');
      const rows =
        format === 'parquet'
          ? await parquetRows(file)
          : format === 'jsonl'
            ? (jsonLines(text) as Record<string, unknown>[])
            : format === 'csv'
              ? csvRecords(text)
              : text
                  .trimEnd()
                  .split('\n')
                  .slice(1)
                  .map((line) => ({ input: line.split('\t')[0] }));
      if (format === 'tsv') expect(text.split('\t')[0]).toBe('input');
      expect(Object.keys(rows[0]!)[0], format).toBe('input');
      cells[format] = rows.map((row) => row.input);
    }
    expect(cells).toEqual({ csv: kept, tsv: kept, jsonl: kept, parquet: kept });
    // Beside input, the columns and rows of a file written without it.
    const { file: plain } = await getMany(folder, 'plain.parquet');
    const withInput = parquetColumns(join(folder, 'gm.parquet'));
    expect(withInput[0]).toBe('input: BYTE_ARRAY UTF8');
    expect(withInput.slice(1)).toEqual(parquetColumns(plain));
    const rows = (await parquetRows(join(folder, 'gm.parquet'))).map(({ input: _, ...paper }) => paper);
    expect(rows).toEqual(await parquetRows(plain));
    const { result, file } = await getMany(folder, 'picked.parquet', '--keep-input', '--fields', 'id,doi');
    expect(result.code, result.stderr).toBe(3);
    expect(parquetColumns(file)).toEqual(['input: BYTE_ARRAY UTF8', 'id: INT64', 'doi: BYTE_ARRAY UTF8']);
    expect((await parquetRows(file)).map((row) => row.input)).toEqual(kept);
  });

  it('SQLite refuses --keep-input with or without --fields (exit 2), before any database is made', async () => {
    const folder = scratch();
    for (const [output, more] of [
      ['gm.sqlite', []],
      ['gm.db', ['--fields', 'id,doi']],
      ['gm.out', ['--format', 'sqlite', '--fields', 'input,id']],
    ] as const) {
      const { result, file } = await getMany(folder, output, '--keep-input', ...more);
      expect(result.code, output).toBe(2);
      expect(result.stderr).toBe(
        'error: --keep-input does not go with --format sqlite: its papers table holds one row per paper, upserted by id, not one per input cell; write parquet, csv, tsv or jsonl\n',
      );
      expect(existsSync(file)).toBe(false);
    }
  });
});

const mock = useMockServer({ sizes: { journals: 5, papers: 80, authors: 20 } });

/** 14 DOIs of papers found, in forms the input may give them, and the folder of their files. */
async function foundList() {
  const all = await mock.client().papers.search({ per_page: 100 }).toArray({ limit: 14 });
  const forms = (doi: string, at: number) => [doi, `https://doi.org/${doi}`, `doi:${doi}`][at % 3]!;
  const dois = all.map((paper) => paper.doi).filter((doi): doi is string => doi !== undefined);
  const folder = scratch();
  const input = join(folder, 'dois.txt');
  writeFileSync(input, `${dois.map(forms).join('\n')}\n`);
  const args = [
    'papers',
    'get-many',
    '--input',
    input,
    '--keep-input',
    '--concurrency',
    '1',
    '--row-group',
    '4',
  ];
  return { dois, folder, args, cells: dois.map(forms) };
}

/** Runs `args`, stopped by Ctrl-C as the lookup of `doi` is asked for; the clock stands still. */
async function stoppedAt(args: string[], doi: string) {
  const lookupOf = (url: URL) => decodeURIComponent(url.pathname).endsWith(`/${doi}`);
  const result = await runStoppedAt(mock.server, args, lookupOf);
  expect(result.code, result.stderr).toBe(130);
}

describe('papers get-many --keep-input --resume into Parquet', { timeout: 120_000 }, () => {
  it('a run stopped and resumed writes the rows of one never stopped, input first', async () => {
    const { dois, folder, args, cells } = await foundList();
    const whole = join(folder, 'whole.parquet');
    const unstopped = await run([...args, '-o', whole], { url: mock.server.url });
    expect(unstopped.code, unstopped.stderr).toBe(0);
    const output = join(folder, 'a.parquet');
    // Batches of 4: stopped in the third, with two batches' row groups in the file.
    await stoppedAt([...args, '-o', output], dois[9]!);
    expect(JSON.parse(readFileSync(`${output}.checkpoint.json`, 'utf8')).position).toBe(8);
    const resumed = await run([...args, '-o', output, '--resume'], { url: mock.server.url });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(parquetColumns(output)).toEqual(parquetColumns(whole));
    expect(parquetColumns(output)[0]).toBe('input: BYTE_ARRAY UTF8');
    const rows = await parquetRows(output);
    expect(rows).toEqual(await parquetRows(whole));
    expect(rows.map((row) => row.input)).toEqual(cells);
  });

  it('refuses to resume a file whose checkpoint has other columns (exit 2), the file kept', async () => {
    const { dois, folder, args } = await foundList();
    const output = join(folder, 'b.parquet');
    await stoppedAt([...args, '-o', output], dois[9]!);
    // The checkpoint of a run that wrote the paper's columns alone.
    const checkpoint = `${output}.checkpoint.json`;
    const saved = JSON.parse(readFileSync(checkpoint, 'utf8'));
    const columns = (saved.writer.columns as string[]).filter((column) => column !== 'input');
    writeFileSync(checkpoint, JSON.stringify({ ...saved, writer: { ...saved.writer, columns } }));
    const before = readFileSync(output);
    const resumed = await run([...args, '-o', output, '--resume'], { url: mock.server.url });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain(`error: --resume: ${output} has the columns ${columns.join(', ')}; `);
    expect(resumed.stderr).toContain(': add --overwrite to start again\n');
    expect(readFileSync(output).subarray(0, before.length)).toEqual(before);
  });
});

/**
 * The Parquet list writer's column chunks, read back by hyparquet: every column type, missing
 * values, integers past 32 bits and below zero, text past the Basic Multilingual Plane, columns a
 * dictionary suits and columns it does not, and each chunk's min, max and null count.
 */
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../../src/cli/output/cells.js';
import { compressionFor, parquetListWriter } from '../../../src/cli/output/parquet.js';
import type { RecordKind } from '../../../src/cli/output/record-kinds.js';
import { parquetObjects } from './hyparquet.js';

const kind: RecordKind = {
  table: 'things',
  key: ['id'],
  columns: {
    id: 'integer',
    score: 'double',
    open: 'boolean',
    day: 'date',
    name: 'text',
    tags: 'json',
    shelf: 'integer',
    title: 'text',
    note: 'text',
  },
};

const names = ['Zoë', 'Ana 山田', 'x 😀', 'x \ue000', 'plain'];

function thing(at: number): Row {
  return {
    id: at % 7 === 0 ? -(2 ** 40) - at : 2 ** 33 + at,
    score: at % 5 === 0 ? undefined : at / 4 - 3,
    open: at % 3 === 0 ? null : at % 2 === 0,
    day: at % 11 === 0 ? 'not a date' : `2024-0${1 + (at % 9)}-1${at % 10}`,
    name: names[at % names.length],
    tags: at % 4 === 0 ? undefined : { at, list: [at, 'x'] },
    shelf: 'not an integer',
    // Text that differs on every row, as titles do: ASCII, and with characters past it.
    title: `Title ${at}`,
    note: at % 9 === 0 ? undefined : `note ${at} ${names[at % names.length]}`,
  };
}

/** What hyparquet reads back for `record`: INT64 as bigint, a date as a Date, JSON as its text. */
function expected(record: Row) {
  const day = Date.parse(`${record.day}T00:00:00Z`);
  return {
    id: BigInt(record.id as number),
    score: record.score ?? null,
    open: record.open ?? null,
    day: Number.isNaN(day) ? null : new Date(day),
    name: record.name,
    tags: record.tags === undefined ? null : JSON.stringify(record.tags),
    shelf: null,
    title: record.title,
    note: record.note ?? null,
  };
}

async function written(
  records: Row[],
  pageSize: number,
  rowGroupRows: number,
  compression?: ReturnType<typeof compressionFor>,
) {
  const writer = await parquetListWriter({ count: 0 }, { kind, rowGroupRows }, compression);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < records.length; at += pageSize)
    chunks.push(writer.rows(records.slice(at, at + pageSize)) as Uint8Array);
  chunks.push(writer.end() as Uint8Array);
  return Uint8Array.from(chunks.flatMap((chunk) => [...chunk])).buffer;
}

describe('the Parquet list writer', () => {
  it('writes every column type as hyparquet reads it, in row groups of whole pages', async () => {
    const records = Array.from({ length: 230 }, (_, at) => thing(at));
    const file = await written(records, 25, 100);
    const rows = await parquetObjects({ file });
    expect(rows).toEqual(records.map(expected));
    const metadata = parquetMetadata(file);
    // Groups end with the page that fills them: 100 rows, 100, then the last 30.
    expect(metadata.row_groups.map((group) => Number(group.num_rows))).toEqual([100, 100, 30]);
    const encodings = metadata.row_groups[0]!.columns.map((column) => column.meta_data?.encodings);
    // The five names repeat: a dictionary; ids are all distinct: plain.
    expect(encodings[4]).toContain('RLE_DICTIONARY');
    expect(encodings[0]).toEqual(['PLAIN']);
    const codecs = metadata.row_groups.flatMap((group) =>
      group.columns.map((column) => column.meta_data?.codec),
    );
    expect(new Set(codecs)).toEqual(new Set(['ZSTD']));
  });

  it('compresses with Snappy, which every reader has built in, on a Node without Zstandard', async () => {
    const records = Array.from({ length: 60 }, (_, at) => thing(at));
    const file = await written(records, 25, 50, compressionFor(undefined));
    // hyparquet given no compressors: Snappy is its own.
    expect(await parquetReadObjects({ file })).toEqual(records.map(expected));
    const codecs = parquetMetadata(file).row_groups.flatMap((group) =>
      group.columns.map((column) => column.meta_data?.codec),
    );
    expect(new Set(codecs)).toEqual(new Set(['SNAPPY']));
  });

  it('gives each chunk its min, max (in UTF-8 order for text) and null count', async () => {
    const records = Array.from({ length: 100 }, (_, at) => thing(at));
    const file = await written(records, 100, 100);
    const [id, score, open, , name, , shelf] = parquetMetadata(file).row_groups[0]!.columns.map(
      (column) => column.meta_data?.statistics,
    );
    expect(id).toMatchObject({ min_value: -(2n ** 40n) - 98n, max_value: 2n ** 33n + 99n, null_count: 0n });
    expect(score).toMatchObject({ min_value: -2.75, max_value: 21.75, null_count: 20n });
    expect(open).toMatchObject({ min_value: false, max_value: true, null_count: 34n });
    // U+1F600 is past U+E000 as UTF-8 bytes, though before it as UTF-16 units.
    expect(name).toMatchObject({ min_value: 'Ana 山田', max_value: 'x 😀', null_count: 0n });
    expect(shelf).toMatchObject({ null_count: 100n });
  });

  it('writes distinct texts ending and starting with lone surrogates, which would join into one character', async () => {
    // A high surrogate closing one title and a low one opening the next: each is U+FFFD in UTF-8,
    // though the two side by side make one valid character.
    const titles = Array.from({ length: 40 }, (_, at) => (at % 2 === 0 ? `x${at}\ud83d` : `\ude00y${at}`));
    const records = titles.map((title, id) => ({ id, title }));
    const file = await written(records, 20, 40);
    const rows = await parquetObjects({ file, columns: ['title'] });
    expect(rows.map((row) => row.title)).toEqual(
      titles.map((title) => title.replace(/[\ud800-\udfff]/, '\ufffd')),
    );
    expect(parquetMetadata(file).row_groups[0]!.columns[7]!.meta_data?.encodings).toEqual(['PLAIN']);
  });

  it('splits a chunk of long text into data pages of about 1 MB, dictionary or not', async () => {
    const long = (at: number) => `${String(at).padStart(6, '0')} ${'lorem ipsum '.repeat(2000)}`;
    const repeated = ['a', 'b', 'c'].map((letter) => letter.repeat(500_000));
    const records = Array.from({ length: 300 }, (_, at) => ({
      id: at,
      name: at % 10 === 0 ? undefined : long(at),
      tags: repeated[at % 3],
    }));
    const file = await written(records, 100, 300);
    const rows = await parquetObjects({ file, columns: ['id', 'name', 'tags'] });
    expect(rows).toEqual(
      records.map((record) => ({
        id: BigInt(record.id),
        name: record.name ?? null,
        tags: record.tags,
      })),
    );
    const [, , , , name, tags] = parquetMetadata(file).row_groups[0]!.columns.map(
      (column) => column.meta_data,
    );
    // 270 texts of 24 kB: 7 MB in pages of 1 MB. The three long tags are a dictionary of 1.5 MB,
    // its indexes one small page.
    expect(name?.encoding_stats).toEqual([{ page_type: 'DATA_PAGE_V2', encoding: 'PLAIN', count: 7 }]);
    expect(tags?.encodings).toEqual(['PLAIN', 'RLE_DICTIONARY']);
    expect(tags?.encoding_stats).toEqual([
      { page_type: 'DICTIONARY_PAGE', encoding: 'PLAIN', count: 1 },
      { page_type: 'DATA_PAGE_V2', encoding: 'RLE_DICTIONARY', count: 1 },
    ]);
  });

  it('describes each chunk as hyparquet-writer does: the same statistics and page encodings', async () => {
    const records = Array.from({ length: 230 }, (_, at) => thing(at));
    const file = await written(records, 25, 100);
    const ours = parquetMetadata(file);
    // The same rows written by the library alone, with its own statistics, from what it read back.
    const rows = await parquetObjects({ file });
    const columnData = Object.keys(kind.columns).map((name) => ({
      name,
      data: rows.map((row) => row[name] ?? null),
    }));
    // hyparquet-writer types its schema with a hyparquet of its own, a version behind the reader's.
    const schema = ours.schema as Parameters<typeof parquetWriteBuffer>[0]['schema'];
    const theirs = parquetMetadata(
      parquetWriteBuffer({ columnData, schema, rowGroupSize: 100, codec: 'UNCOMPRESSED' }),
    );
    const described = (metadata: typeof ours) =>
      metadata.row_groups.map((group) =>
        group.columns.map(({ meta_data }) => [meta_data?.statistics, meta_data?.encoding_stats]),
      );
    expect(described(ours)).toEqual(described(theirs));
  });

  it('resumes from its state as a checkpoint keeps it, every column type; refuses it edited', async () => {
    const records = Array.from({ length: 230 }, (_, at) => thing(at));
    const options = { kind, rowGroupRows: 50, database: 'things.parquet' };
    const first = await parquetListWriter({ count: 0 }, options);
    const chunks = [0, 50].map((at) => first.rows(records.slice(at, at + 50)) as Uint8Array);
    const state = JSON.parse(JSON.stringify(first.state()));
    const resumed = await parquetListWriter(state, options);
    for (let at = 100; at < records.length; at += 50)
      chunks.push(resumed.rows(records.slice(at, at + 50)) as Uint8Array);
    chunks.push(resumed.end() as Uint8Array);
    const file = Uint8Array.from(chunks.flatMap((chunk) => [...chunk])).buffer;
    expect(await parquetObjects({ file })).toEqual(records.map(expected));

    // The day column's statistics: days since 1970, a count a DATE holds, not text.
    const edited = state.parquet.rowGroups.replace(/"min_value":(\d+)/, '"min_value":"$1"');
    expect(edited).not.toBe(state.parquet.rowGroups);
    await expect(
      parquetListWriter({ ...state, parquet: { ...state.parquet, rowGroups: edited } }, options),
    ).rejects.toThrow(
      'things.parquet.checkpoint.json is not a checkpoint this command can resume (writer.parquet row group 1, column day: statistics min_value or max_value is not INT32)',
    );
  });
});

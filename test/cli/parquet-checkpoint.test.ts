/**
 * The Parquet part of a checkpoint (`writer.parquet`: the file's length and its row groups' metadata,
 * from which the resumed run writes the footer) is checked on resume before the file is touched, as
 * the rest is: one that does not describe the file written is refused (exit 2) naming what is wrong,
 * the file unchanged and nothing sent, rather than ending a file no reader opens.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useMockServer } from '../support.js';
import { run, runStoppedAt } from './helpers.js';
import { parquetRows } from './output/hyparquet.js';
import { scratch } from './resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 100, authors: 5 } });
const search = ['papers', 'search', '--per-page', '5', '--all', '--prefetch', '0', '--row-group', '20'];

type Json = Record<string, unknown> & { writer: { parquet: { offset: number; rowGroups: string } } };
type Group = {
  num_rows: unknown;
  columns: Array<{ file_offset: unknown; meta_data: Record<string, unknown> }>;
};

let stopped: { bytes: Buffer; checkpoint: string };

const checkpointOf = (path: string) => `${path}.checkpoint.json`;
const halfWritten = Buffer.alloc(100, 7);

beforeAll(async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'scholarly-cli-')), 'out.parquet');
  // Stopped as page 10 is asked for: two row groups of 20 records written, the checkpoint after them.
  const page = (url: URL) => url.pathname.endsWith('/papers') && url.searchParams.get('page') === '10';
  const result = await runStoppedAt(mock.server, [...search, '-o', file], page);
  expect(result.code, result.stderr).toBe(130);
  stopped = { bytes: readFileSync(file), checkpoint: readFileSync(checkpointOf(file), 'utf8') };
  rmSync(dirname(file), { recursive: true });
});

/**
 * The stopped run's file and checkpoint (`checkpoint`, if given) in a scratch folder of the test's
 * own, the file with bytes past the checkpoint's length, as a group half-written at `kill -9` leaves
 * them: a resume cuts them off, a refusal keeps them.
 */
function stoppedFile(checkpoint = stopped.checkpoint): string {
  const file = join(scratch(), 'out.parquet');
  writeFileSync(file, Buffer.concat([stopped.bytes, halfWritten]));
  writeFileSync(checkpointOf(file), checkpoint);
  return file;
}

/** The checkpoint as the stopped run left it, its row groups edited by `edit`. */
function withGroups(edit: (groups: Group[]) => void) {
  return (checkpoint: Json) => {
    const groups = JSON.parse(checkpoint.writer.parquet.rowGroups) as Group[];
    edit(groups);
    checkpoint.writer.parquet.rowGroups = JSON.stringify(groups);
  };
}

const bigint = (value: number) => ({ $bigint: String(value) });

describe('the Parquet part of a checkpoint, on resume', { timeout: 120_000 }, () => {
  it('as the stopped run left it: resumed to the whole file', async () => {
    const file = stoppedFile();
    const checkpoint = JSON.parse(stopped.checkpoint) as Json;
    expect(checkpoint.writer.parquet.offset).toBe(checkpoint.bytes);
    const result = await run([...search, '-o', file, '--resume'], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect((await parquetRows(file)).map((row) => row.id)).toEqual(
      Array.from({ length: 100 }, (_, at) => at + 1),
    );
  });

  it.each<[string, (checkpoint: Json) => void, RegExp]>([
    [
      'offset 5',
      (c) => {
        c.writer.parquet.offset = 5;
      },
      /writer\.parquet\.offset is 5, not bytes \d+/,
    ],
    [
      'offset past bytes',
      (c) => {
        c.writer.parquet.offset = (c.bytes as number) + 100_000;
      },
      /writer\.parquet\.offset is \d+, not bytes \d+/,
    ],
    [
      'bytes and offset 5',
      (c) => {
        c.bytes = 5;
        c.writer.parquet.offset = 5;
      },
      /row groups end at byte \d+, not at writer\.parquet\.offset 5/,
    ],
    [
      'rowGroups "[]"',
      (c) => {
        c.writer.parquet.rowGroups = '[]';
      },
      /row groups end at byte 4, not at writer\.parquet\.offset \d+/,
    ],
    [
      'rowGroups not JSON',
      (c) => {
        c.writer.parquet.rowGroups = 'not json';
      },
      /rowGroups is not JSON/,
    ],
    [
      'rowGroups {}',
      (c) => {
        c.writer.parquet.rowGroups = '{}';
      },
      /rowGroups is not a list/,
    ],
    [
      'a count not a number',
      withGroups((g) => {
        g[0]!.num_rows = { $bigint: 'x' };
      }),
      /rowGroups is not JSON/,
    ],
    [
      'parquet "x"',
      (c) => {
        (c.writer as Record<string, unknown>).parquet = 'x';
      },
      /writer\.parquet is not/,
    ],
    [
      'parquet missing',
      (c) => {
        (c.writer as Record<string, unknown>).parquet = undefined;
      },
      /writer\.parquet is missing/,
    ],
    [
      'a chunk one byte on',
      withGroups((g) => {
        const chunk = g[1]!.columns[2]!;
        chunk.file_offset = bigint(Number((chunk.file_offset as { $bigint: string }).$bigint) + 1);
      }),
      /row group 2, column authors: file_offset is \d+, not \d+/,
    ],
    [
      "a column's type",
      withGroups((g) => {
        g[0]!.columns[0]!.meta_data.type = 'DOUBLE';
      }),
      /row group 1, column id: type is DOUBLE, not INT64/,
    ],
    [
      'more rows than were written',
      withGroups((g) => {
        g[1]!.num_rows = bigint(500);
        for (const column of g[1]!.columns) column.meta_data.num_values = bigint(500);
      }),
      /row groups hold 520 rows, more than the 40 records written/,
    ],
    [
      'a statistic of another type',
      withGroups((g) => {
        (g[0]!.columns[0]!.meta_data.statistics as Record<string, unknown>).min_value = 'one';
      }),
      /row group 1, column id: statistics/,
    ],
    [
      'a field the writer does not write',
      withGroups((g) => {
        g[0]!.columns[1]!.meta_data.index_page_offset = bigint(3);
      }),
      /row group 1, column title: meta_data has index_page_offset/,
    ],
  ])('%s: exit 2 naming it, the file unchanged, nothing sent', async (_, edit, named) => {
    const checkpoint = JSON.parse(stopped.checkpoint) as Json;
    edit(checkpoint);
    const file = stoppedFile(JSON.stringify(checkpoint));
    mock.api.reset();
    const result = await run([...search, '-o', file, '--resume'], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(
      /^error: .*out\.parquet\.checkpoint\.json is not a checkpoint this command can resume \(/,
    );
    expect(result.stderr).toMatch(named);
    expect(result.stderr).toMatch(/add --overwrite \(instead of --resume\) to start again/);
    expect(readFileSync(file)).toEqual(Buffer.concat([stopped.bytes, halfWritten]));
    expect(mock.api.requests).toHaveLength(0);
  });
});

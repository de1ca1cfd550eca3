/**
 * The Parquet list writer (hyparquet-writer: pure JavaScript). Records are gathered into row groups
 * of `parquetRowGroupRows` and each group is written as soon as it is whole, so a harvest of a
 * million records holds one group in memory. Parquet's footer (the metadata of every group) comes
 * last: the writer keeps the written groups' metadata in its state, which the checkpoint saves, so
 * a resumed run cuts the file back to the end of its last whole group, writes on, and ends the file
 * with the footer of every group, the earlier run's included.
 */
import * as zlib from 'node:zlib';
import { ParquetWriter } from 'hyparquet-writer';
import { checkpointPath, refusedCheckpoint } from '../checkpoint.js';
import { UsageError } from '../errors.js';
import type { Row } from './cells.js';
import { terminalSafe } from './escape.js';
import { projector } from './fields.js';
import { type ColumnChunk, ColumnGatherer } from './parquet-columns.js';
import { checkedGroups, encodeGroup, type FileColumn } from './parquet-groups.js';
import { type ColumnType, typedColumns } from './record-kinds.js';
import { recordsAmong } from './typed-values.js';
import type { ListState, ListWriter, ParquetState, WriterOptions } from './writer-types.js';

/** Records a row group holds, at least: a group is written at the end of the page that fills it. */
export const parquetRowGroupRows = 10_000;

type WriterSettings = ConstructorParameters<typeof ParquetWriter>[0];
type Compress = (bytes: Uint8Array) => Uint8Array;

/**
 * How column chunks are compressed: Zstandard by `zstd` (Node's own zlib has it from Node 22.15),
 * smaller than Snappy and native rather than JavaScript; DuckDB, pyarrow (pandas) and polars read
 * it. Without it, Snappy in hyparquet-writer's own code.
 */
export function compressionFor(zstd: Compress | undefined): Pick<WriterSettings, 'codec' | 'compressors'> {
  return zstd ? { codec: 'ZSTD', compressors: { ZSTD: zstd } } : { codec: 'SNAPPY' };
}

const nodeCompression = compressionFor(
  typeof zlib.zstdCompressSync === 'function' ? (bytes) => zlib.zstdCompressSync(bytes) : undefined,
);

type SchemaElement = WriterSettings['schema'][number];
type RowGroup = ParquetWriter['row_groups'][number];

/** The Parquet schema element of a column. */
function elementOf(name: string, type: ColumnType): SchemaElement {
  const repetition_type = 'OPTIONAL' as const;
  switch (type) {
    case 'integer':
      return { name, type: 'INT64', repetition_type };
    case 'double':
      return { name, type: 'DOUBLE', repetition_type };
    case 'boolean':
      return { name, type: 'BOOLEAN', repetition_type };
    case 'date':
      return { name, type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' }, repetition_type };
    default:
      return {
        name,
        type: 'BYTE_ARRAY',
        converted_type: 'UTF8',
        logical_type: { type: 'STRING' },
        repetition_type,
      };
  }
}

/** The bytes hyparquet-writer appends, taken as each row group is written. */
class Bytes {
  buffer = new ArrayBuffer(1 << 16);
  view = new DataView(this.buffer);
  bytes = new Uint8Array(this.buffer);
  offset: number;
  index = 0;
  constructor(offset: number) {
    this.offset = offset;
  }
  ensure(size: number): void {
    if (this.index + size <= this.buffer.byteLength) return;
    const grown = new ArrayBuffer(Math.max(this.buffer.byteLength * 2, this.index + size));
    new Uint8Array(grown).set(this.bytes.subarray(0, this.index));
    this.buffer = grown;
    this.view = new DataView(grown);
    this.bytes = new Uint8Array(grown);
  }
  /** Appends `value` with no view of its own: the library's makes one per value, a text's included. */
  appendBytes(value: Uint8Array): void {
    this.ensure(value.length);
    this.bytes.set(value, this.index);
    this.offset += value.length;
    this.index += value.length;
  }
  /** The bytes appended since the last take, copied; the buffer starts again empty. */
  take(): Uint8Array {
    const bytes = new Uint8Array(this.buffer.slice(0, this.index));
    this.index = 0;
    return bytes;
  }
}

/** The methods hyparquet-writer calls on its writer, borrowed from its own ByteWriter. */
async function writerAt(offset: number): Promise<Bytes> {
  const { ByteWriter } = await import('hyparquet-writer');
  const bytes = new Bytes(offset);
  for (const name of Object.getOwnPropertyNames(ByteWriter.prototype)) {
    if (name === 'constructor' || name === 'ensure' || name in bytes) continue;
    Object.defineProperty(bytes, name, { value: (ByteWriter.prototype as never)[name] });
  }
  return bytes;
}

/** The Parquet writer of a list, resumed from `restored` if given. */
export async function parquetListWriter(
  restored: ListState,
  options: WriterOptions,
  compression = nodeCompression,
): Promise<ListWriter> {
  const state: ListState = { ...restored };
  const project = options.fields === undefined ? undefined : projector(options.fields);
  const columns = typedColumns(options.kind, options.fields, state.columns ?? options.columns ?? []);
  const names = columns.map(([name]) => name);
  const columnNames = new Set(names);
  if (state.parquet !== undefined) checkColumns(state.columns, names, options.database);
  state.columns = names;
  const saved: ParquetState = state.parquet ?? { offset: 0, rowGroups: '[]' };
  const { writer, bytes } = await openWriter(columns, saved, state.count, options.database, compression);
  const group = rowGroup(writer, columns, options.unfit);
  // Each group's metadata as JSON text, made once: the checkpoint holds every group's, after each group.
  const groupTexts: string[] = [];
  const written = (): Uint8Array => {
    for (const group of writer.row_groups.slice(groupTexts.length)) groupTexts.push(encodeGroup(group));
    state.parquet = { offset: bytes.offset, rowGroups: `[${groupTexts.join(',')}]` };
    return bytes.take();
  };
  return {
    rows(records) {
      const kept = recordsAmong(records, options.unfit);
      const rows = project ? kept.map(project) : kept;
      options.unfit?.leftOut.note(rows, columnNames);
      group.add(rows);
      // Counted as given, as the walk needs for --limit; a checkpoint is noted only with none pending.
      state.count += records.length;
      if (group.pending() < (options.rowGroupRows ?? parquetRowGroupRows)) return new Uint8Array();
      group.write();
      return written();
    },
    end() {
      group.write();
      void writer.finish();
      return written();
    },
    state: () => state,
    pending: () => group.pending(),
  };
}

type Columns = ReadonlyArray<readonly [string, ColumnType]>;

/**
 * hyparquet-writer writing `columns` into bytes taken as they come, from `saved.offset` on; a resumed
 * file's row groups (`count` records) are restored from `saved`.
 */
async function openWriter(
  columns: Columns,
  saved: ParquetState,
  count: number,
  file: string | undefined,
  compression: Pick<WriterSettings, 'codec' | 'compressors'>,
): Promise<{ writer: ParquetWriter; bytes: Bytes }> {
  const bytes = await writerAt(saved.offset);
  const schema: SchemaElement[] = [
    { name: 'root', num_children: columns.length },
    ...columns.map(([name, type]) => elementOf(name, type)),
  ];
  const writer = new ParquetWriter({ writer: bytes as never, schema, ...compression });
  // The constructor appends the magic number: a resumed file has it already.
  if (saved.offset > 0) {
    bytes.take();
    bytes.offset = saved.offset;
    writer.row_groups = resumedGroups(saved, schema, count, file);
    writer.num_rows = writer.row_groups.reduce((sum, group) => sum + group.num_rows, 0n);
  }
  return { writer, bytes };
}

/**
 * The row group being gathered, column by column as pages come, so only its stored values are held;
 * `write()` hands it to `writer` (nothing when it is empty).
 */
function rowGroup(writer: ParquetWriter, columns: Columns, unfit: WriterOptions['unfit']) {
  const gatherers = columns.map(([name, type]) => new ColumnGatherer(name, type, unfit));
  let pending = 0;
  return {
    pending: () => pending,
    add(rows: readonly Row[]): void {
      for (const gatherer of gatherers) gatherer.add(rows);
      pending += rows.length;
    },
    write(): void {
      if (pending === 0) return;
      const chunks = gatherers.map((gatherer) => gatherer.take());
      const columnData = columns.map(([name], j) => {
        const { data, encoding } = chunks[j]!;
        return { name, data, statistics: false, ...(encoding && { encoding }) };
      });
      void writer.write({ columnData, rowGroupSize: pending });
      describeChunks(writer, chunks);
      pending = 0;
    },
  };
}

/**
 * The row groups of the file a checkpoint resumes, checked against the columns of `schema` and the
 * `count` records written; groups that do not describe the file are refused as the checkpoint's.
 */
function resumedGroups(
  saved: ParquetState,
  schema: readonly SchemaElement[],
  count: number,
  file = 'FILE',
): RowGroup[] {
  const columns = schema.slice(1).map(({ name, type }): FileColumn => [name, type ?? '']);
  const groups = checkedGroups(saved.rowGroups, saved.offset, columns, count);
  if (typeof groups === 'string') throw refusedCheckpoint(checkpointPath(file), groups);
  return groups;
}

/**
 * Refuses to resume a file whose groups have other columns than this run writes (a checkpoint of
 * another release of the command line): the footer would describe columns its groups do not hold.
 */
function checkColumns(
  saved: readonly string[] | undefined,
  names: readonly string[],
  file = 'the file',
): void {
  if (saved === undefined || JSON.stringify(saved) === JSON.stringify(names)) return;
  throw new UsageError(
    terminalSafe(
      `--resume: ${file} has the columns ${saved.join(', ')}; this run writes ${names.join(', ')}: add --overwrite to start again`,
    ),
  );
}

/**
 * Completes the metadata of the row group just written: its chunks' statistics, made with their
 * values, and their pages' encodings, counted from the page locations the library reports. Those
 * locations are then dropped, not written: page indexes go in the footer from memory, and a resumed
 * run would not have the earlier groups'.
 */
function describeChunks(writer: ParquetWriter, chunks: readonly ColumnChunk[]): void {
  const written = writer.pendingIndexes.splice(0);
  writer.row_groups.at(-1)!.columns.forEach((column, j) => {
    const meta = column.meta_data!;
    const pages = written[j]?.offsetIndex?.page_locations.length ?? 1;
    const dictionary = meta.dictionary_page_offset === undefined ? [] : [dictionaryPage];
    meta.statistics = chunks[j]!.statistics as typeof meta.statistics;
    meta.encoding_stats = [
      ...dictionary,
      { page_type: 'DATA_PAGE_V2', encoding: meta.encodings.at(-1)!, count: pages },
    ];
  });
}

const dictionaryPage = { page_type: 'DICTIONARY_PAGE', encoding: 'PLAIN', count: 1 } as const;

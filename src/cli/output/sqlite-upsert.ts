/**
 * The SQLite writer's upserts: a table per record kind, made (or given the columns an older database
 * lacks) before the first row, then rows upserted by the kind's key, many to a statement. A record
 * writes the columns of the fields it carries: one it does not carry keeps the value stored, one it
 * carries as null replaces it.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Row } from './cells.js';
import { type ColumnType, type RecordKind, tableColumns } from './record-kinds.js';
import { recordsAmong, storedNoting, storedValue, type UnfitValues } from './typed-values.js';

const declared: Record<ColumnType, string> = {
  integer: 'INTEGER',
  double: 'REAL',
  boolean: 'BOOLEAN',
  date: 'DATE',
  text: 'TEXT',
  json: 'TEXT',
};

/** A double-quoted SQL name: the names are the API's fields, quoted all the same. */
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Makes `table` if it is not there, and adds the columns an older database lacks. */
export function ensureTable(
  database: DatabaseSync,
  table: string,
  columns: Readonly<Record<string, ColumnType>>,
  key: readonly string[],
): void {
  const definitions = Object.entries(columns).map(([name, type]) => `${quoted(name)} ${declared[type]}`);
  database.exec(
    `CREATE TABLE IF NOT EXISTS ${quoted(table)} (${definitions.join(', ')}, ` +
      `PRIMARY KEY (${key.map(quoted).join(', ')}))`,
  );
  const present = new Set(
    (database.prepare(`PRAGMA table_info(${quoted(table)})`).all() as Array<{ name: string }>).map(
      (column) => column.name,
    ),
  );
  for (const [name, type] of Object.entries(columns))
    if (!present.has(name))
      database.exec(`ALTER TABLE ${quoted(table)} ADD COLUMN ${quoted(name)} ${declared[type]}`);
}

/**
 * The statement that upserts `rows` rows of `columns` into `table`, keyed by `key`: a row already
 * there gets these columns' values, its others left as they are.
 */
export function upsertStatement(
  database: DatabaseSync,
  table: string,
  columns: readonly string[],
  key: readonly string[],
  rows = 1,
): StatementSync {
  const others = columns.filter((column) => !key.includes(column));
  const update =
    others.length === 0
      ? 'DO NOTHING'
      : `DO UPDATE SET ${others.map((column) => `${quoted(column)} = excluded.${quoted(column)}`).join(', ')}`;
  const row = `(${columns.map(() => '?').join(', ')})`;
  return database.prepare(
    `INSERT INTO ${quoted(table)} (${columns.map(quoted).join(', ')}) ` +
      `VALUES ${Array.from({ length: rows }, () => row).join(', ')} ON CONFLICT (${key.map(quoted).join(', ')}) ${update}`,
  );
}

/**
 * A function that upserts a record of `kind` into its table (made if missing), writing the kind's
 * own columns (a journal's profile leaves the list's columns as they are); values they cannot hold
 * are counted in `unfit`.
 */
export function upserter(
  database: DatabaseSync,
  kind: RecordKind,
  unfit?: UnfitValues,
): (record: Row) => void {
  const upsert = batchUpserter(database, kind, Object.keys(kind.columns), unfit);
  return (record) => upsert([record]);
}

/** The bound parameters of one statement, at most: far under SQLite's own limit (32,766). */
const parametersPerStatement = 1000;

/**
 * The shapes whose statements are kept, at most: records of ever new shapes (a server that leaves out
 * fields at random) would otherwise prepare statements without end.
 */
const shapesKept = 64;

/** The columns a record carries, by their index among the written ones, and its statements by rows. */
interface Shape {
  readonly at: readonly number[];
  readonly rowsPerStatement: number;
  statement(rows: number): StatementSync;
}

/**
 * The shapes of the records upserted into `kind`'s table through `columns`, each made once: a page
 * mostly holds records of one shape and one length, so its statement is prepared once for them all.
 */
function shapesOf(database: DatabaseSync, kind: RecordKind, columns: readonly string[]) {
  const shape = (at: readonly number[]): Shape => {
    const named = at.map((index) => columns[index]!);
    const statements = new Map<number, StatementSync>();
    return {
      at,
      rowsPerStatement: Math.max(1, Math.floor(parametersPerStatement / at.length)),
      statement(rows) {
        let statement = statements.get(rows);
        if (statement === undefined) {
          statement = upsertStatement(database, kind.table, named, kind.key, rows);
          statements.set(rows, statement);
        }
        return statement;
      },
    };
  };
  const every = shape(columns.map((_, index) => index));
  const others = new Map<string, Shape>();
  /** The shape of `record`: its columns are those whose field it carries, null included. */
  const shapeOf = (record: Row): Shape => {
    let absent = '';
    for (let index = 0; index < columns.length; index++)
      if (record[columns[index]!] === undefined) absent += `${index},`;
    if (absent === '') return every;
    let found = others.get(absent);
    if (found === undefined) {
      if (others.size >= shapesKept) others.clear();
      const missing = new Set(absent.split(',').slice(0, -1).map(Number));
      found = shape(every.at.filter((index) => !missing.has(index)));
      others.set(absent, found);
    }
    return found;
  };
  return { every, shapeOf };
}

type Value = null | number | string;

/** What puts a record's values of `columns` into a statement's parameters, as their `types` store them. */
function cellsOf(columns: readonly string[], types: readonly ColumnType[], unfit: UnfitValues | undefined) {
  return {
    /**
     * Pushes to `values` the record's value of every column and says true; pushes nothing and says
     * false when it lacks a field. The usual record, so it reads each field once.
     */
    every(record: Row, values: Value[]): boolean {
      const mark = values.length;
      for (let index = 0; index < columns.length; index++) {
        const value = record[columns[index]!];
        if (value === undefined) {
          values.length = mark;
          return false;
        }
        const stored = storedValue(value, types[index]!);
        // As Parquet stores it, booleans as 0 and 1.
        values.push(typeof stored === 'boolean' ? Number(stored) : stored);
      }
      // Counted once the record is known to be written whole: a value given, stored as null.
      if (unfit !== undefined)
        for (let index = 0; index < columns.length; index++)
          if (values[mark + index] === null && record[columns[index]!] !== null)
            unfit.note(columns[index]!, types[index]!);
      return true;
    },
    /** Pushes to `values` the record's values of the columns at `at`. */
    some(record: Row, at: readonly number[], values: Value[]): void {
      for (const index of at) {
        const stored = storedNoting(record[columns[index]!], columns[index]!, types[index]!, unfit);
        values.push(typeof stored === 'boolean' ? Number(stored) : stored);
      }
    },
  };
}

/**
 * A function that upserts records of `kind` as `upserter` does, many rows to a statement: each call
 * into SQLite has a cost of its own, which a statement per record would pay for every record.
 * Rows are upserted in order, so a key given twice in one page ends with its last values; records
 * of one shape in a row share a statement. A record without a value for each key column is not
 * written but counted in `unfit`: SQLite would make up a key for it (a new row each run) or keep
 * every such row apart.
 */
export function batchUpserter(
  database: DatabaseSync,
  kind: RecordKind,
  columns: readonly string[] = Object.keys(kind.columns),
  unfit?: UnfitValues,
): (records: readonly Row[]) => void {
  // A table no command lists (the journal-paper link) has its kind's own columns alone.
  ensureTable(database, kind.table, { ...kind.columns, ...tableColumns(kind.table) }, kind.key);
  const cells = cellsOf(
    columns,
    columns.map((column) => kind.columns[column] ?? 'json'),
    unfit,
  );
  const { every, shapeOf } = shapesOf(database, kind, columns);
  // Prepared now: a table that cannot take the upserts (made by hand, with no key) fails before a request.
  every.statement(1);
  const keyed = (record: Row) =>
    kind.key.every((name) => storedValue(record[name], kind.columns[name] ?? 'json') !== null);
  const written = new Set(columns);
  // Said only when every column is written: with `--fields`, the fields left out are the ones the
  // user left out (Parquet, which projects the records first, says nothing either).
  const everyColumn = Object.keys(kind.columns).every((name) => written.has(name));
  return (given) => {
    const rows = recordsAmong(given, unfit);
    if (everyColumn) unfit?.leftOut.note(rows, written);
    const records = rows.filter(keyed);
    if (records.length < rows.length) unfit?.noteUnkeyed(kind.key, rows.length - records.length);
    let shape = every;
    let values: Value[] = [];
    let count = 0;
    const run = () => {
      if (count > 0) shape.statement(count).run(...values);
      values = [];
      count = 0;
    };
    for (const record of records) {
      if (shape === every) {
        if (count === every.rowsPerStatement) run();
        if (cells.every(record, values)) {
          count += 1;
          continue;
        }
      }
      const next = shapeOf(record);
      if (next !== shape || count === next.rowsPerStatement) run();
      shape = next;
      cells.some(record, shape.at, values);
      count += 1;
    }
    run();
  };
}

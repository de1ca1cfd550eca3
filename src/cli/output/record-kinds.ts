/**
 * What the database formats (Parquet, SQLite) know of each command's records: the table they belong
 * in, its key, and a type for each column. The types are read from the package's published OpenAPI
 * document (the SDK's response schemas), so a column is typed before any record arrives and the
 * same column has the same type in every file, whatever its first values look like.
 */
import { components } from '../../../openapi/openapi.json';

/** A column's type: what Parquet and SQLite store it as. Nested values are `json` (JSON text). */
export type ColumnType = 'integer' | 'double' | 'boolean' | 'date' | 'text' | 'json';

/** The part of a JSON Schema read here. */
interface Schema {
  readonly description?: string;
  readonly type?: string;
  readonly format?: string;
  readonly properties?: Readonly<Record<string, Schema>>;
}

const schemas: Readonly<Record<string, Schema>> = components.schemas;

/** The type of a field of `schema`. */
function typeOf(field: Schema): ColumnType {
  switch (field.type) {
    case 'integer':
      return 'integer';
    case 'number':
      return 'double';
    case 'boolean':
      return 'boolean';
    case 'string':
      return field.format === 'date' ? 'date' : 'text';
    default:
      return 'json';
  }
}

function columnsOfSchema(name: string): Record<string, ColumnType> {
  const properties = schemas[name]?.properties ?? {};
  return Object.fromEntries(Object.entries(properties).map(([field, schema]) => [field, typeOf(schema)]));
}

/** A record kind: its table, key and typed columns. */
export interface RecordKind {
  readonly table: string;
  readonly key: readonly string[];
  readonly columns: Readonly<Record<string, ColumnType>>;
}

/** The paper summary of a search: the API publishes no shape for it; these are the fields it sends. */
const paperSummary: Record<string, ColumnType> = {
  id: 'integer',
  title: 'text',
  authors: 'text',
  doi: 'text',
  year: 'integer',
  citations: 'integer',
  oa: 'boolean',
  journal_id: 'integer',
};

const kind = (table: string, key: readonly string[], columns: Record<string, ColumnType>): RecordKind => ({
  table,
  key,
  columns,
});

/** The record kind of each command (its path: `papers search`). */
export const recordKinds: Readonly<Record<string, RecordKind>> = {
  'journals list': kind('journals', ['id'], columnsOfSchema('Journal')),
  'journals get': kind('journals', ['id'], columnsOfSchema('JournalProfile')),
  'journals papers': kind('papers', ['id'], columnsOfSchema('JournalPaper')),
  'journals score': kind('score_points', ['journal_id', 'date'], {
    journal_id: 'integer',
    ...columnsOfSchema('ScorePoint'),
  }),
  'papers search': kind('papers', ['id'], paperSummary),
  'papers get': kind('papers', ['id'], columnsOfSchema('Paper')),
  'papers get-many': kind('papers', ['id'], columnsOfSchema('Paper')),
  'authors list': kind('authors', ['id'], columnsOfSchema('Author')),
  'authors get': kind('authors', ['id'], columnsOfSchema('AuthorProfile')),
  'subjects list': kind('subjects', ['id'], columnsOfSchema('Subject')),
  'countries list': kind('countries', ['id'], columnsOfSchema('Country')),
};

/** The link of a journal to its papers: written beside `papers` by `journals papers ID`. */
export const journalPapers = kind('journal_papers', ['journal_id', 'paper_id'], {
  journal_id: 'integer',
  paper_id: 'integer',
});

/** Every column of `table`, over the kinds that write it: the columns its SQLite table is made with. */
export function tableColumns(table: string): Record<string, ColumnType> {
  const columns: Record<string, ColumnType> = {};
  for (const each of Object.values(recordKinds))
    if (each.table === table) Object.assign(columns, each.columns);
  return columns;
}

/** The kind of the command `path` (`['papers', 'search']`), if the database formats know it. */
export function recordKindOf(path: readonly string[] | undefined): RecordKind | undefined {
  return path === undefined ? undefined : recordKinds[path.slice(0, 2).join(' ')];
}

/**
 * The typed columns of a file of `kind`'s records: `fields` (`--fields`) in their order, else the
 * kind's; a field the kind does not type (a nested dot path, a field it does not know) is JSON text.
 */
export function typedColumns(
  kind: RecordKind | undefined,
  fields: readonly string[] | undefined,
  seen: readonly string[],
): Array<[string, ColumnType]> {
  const names = fields ?? (kind === undefined ? seen : Object.keys(kind.columns));
  return names.map((name) => [name, kind?.columns[name] ?? 'json']);
}

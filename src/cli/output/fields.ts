/**
 * `--fields a,b,c`: the fields to write, in that order, a nested one by its dot path
 * (`papers.title` reads `title` in each element of `papers`). The fields a command's records can
 * have are known before any request, so a misspelt field is a usage error that sends nothing.
 */
import type { Row } from './cells.js';

/** The fields of a record: each a name, with the fields of its nested record or list, if any. */
export type FieldTree = { readonly [name: string]: FieldTree | null };

/** The field names of `raw` (`a,b , c`), in order, each once. */
export function parseFields(raw: string): string[] {
  const names = raw.split(',').map((name) => name.trim());
  if (names.some((name) => name === ''))
    throw new Error('expected field names separated by commas, e.g. id,title.');
  return [...new Set(names)];
}

/** Every path of `tree`, nested ones as dot paths, in order. */
export function fieldPaths(tree: FieldTree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([name, nested]) => [
    prefix + name,
    ...(nested === null ? [] : fieldPaths(nested, `${prefix}${name}.`)),
  ]);
}

/** The paths of `fields` that `tree` does not know. */
export function unknownFields(fields: readonly string[], tree: FieldTree): string[] {
  const known = new Set(fieldPaths(tree));
  return fields.filter((field) => !known.has(field));
}

/** The value at `path` in `value`; through a list, the list of each element's value. */
export function valueAt(value: unknown, path: readonly string[]): unknown {
  return valueFrom(value, path, 0);
}

/** The value at `path` from its `at`-th name on: the path is walked by index, never copied. */
function valueFrom(value: unknown, path: readonly string[], at: number): unknown {
  if (at === path.length) return value;
  if (Array.isArray(value)) return value.map((item) => valueFrom(item, path, at));
  if (value === null || typeof value !== 'object') return undefined;
  const name = path[at]!;
  return Object.hasOwn(value, name) ? valueFrom((value as Row)[name], path, at + 1) : undefined;
}

/** A function reading `field` (a dot path) from a record, as `valueAt` does, its path split once. */
export function fieldReader(field: string): (record: Row) => unknown {
  const path = field.split('.');
  return (record) => valueFrom(record, path, 0);
}

/** A function giving each record with `fields` alone, in that order, keyed by their paths. */
export function projector(fields: readonly string[]): (record: Row) => Row {
  const readers = fields.map((field) => [field, fieldReader(field)] as const);
  return (record) => {
    const out: Row = {};
    for (const [field, read] of readers) out[field] = read(record);
    return out;
  };
}

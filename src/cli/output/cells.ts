/** Records as cells: the columns of a batch, and each value as one line of text. */

export type Row = Record<string, unknown>;

/** The keys of `records`, in the order first seen. */
export function columnsOf(records: readonly unknown[]): string[] {
  const seen = new Set<string>();
  for (const record of records) {
    if (record !== null && typeof record === 'object') for (const key of Object.keys(record)) seen.add(key);
  }
  return [...seen];
}

/** A value as a cell: text as is, nested values as JSON, a missing value empty. */
export function cellOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

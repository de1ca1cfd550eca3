/** What the CLI's output should hold, from the mock through the SDK, and its output parsed back. */
import { parse } from 'csv-parse/sync';

/** A record as its CSV row reads back: every value text, nested values as JSON, missing ones empty. */
export function asCells(record: Record<string, unknown>, columns: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    columns.map((column) => {
      const value = record[column];
      const cell =
        value === undefined || value === null
          ? ''
          : typeof value === 'object'
            ? JSON.stringify(value)
            : String(value);
      return [column, cell];
    }),
  );
}

/** CSV with a header row, as objects keyed by the header. */
export function csvRecords(text: string): Array<Record<string, string>> {
  return parse(text, { columns: true }) as Array<Record<string, string>>;
}

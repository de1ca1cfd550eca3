/**
 * A value as a typed column stores it, the same in Parquet and in SQLite. A value the column cannot
 * hold is stored as null and counted: the shape of some answers (a search's results) is not
 * published, so a server may send a year as text, and the run then says what it could not keep.
 */
import { grouped } from '../counts.js';
import { cellOf, isRow, LeftOutFields, type Row } from './cells.js';
import { warningLine } from './escape.js';
import type { ColumnType } from './record-kinds.js';

/** `YYYY-MM-DD`, the date a typed column keeps of a date or date-time. */
const datePrefix = /^\d{4}-\d{2}-\d{2}/;

/** `value` as a column of `type` stores it; `null` for nothing, or for a value the column cannot hold. */
export function storedValue(value: unknown, type: ColumnType): number | boolean | string | null {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
    case 'double':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      const day = typeof value === 'string' ? datePrefix.exec(value)?.[0] : undefined;
      return day !== undefined && isDay(day) ? day : null;
    }
    default:
      return cellOf(value);
  }
}

/** `value` as its column `name` of `type` stores it; a value the column cannot hold is counted in `unfit`. */
export function storedNoting(value: unknown, name: string, type: ColumnType, unfit?: UnfitValues) {
  const stored = storedValue(value, type);
  if (stored === null && value !== undefined && value !== null) unfit?.note(name, type);
  return stored;
}

/** The start of the day `YYYY-MM-DD` (UTC), in ms; NaN for a text no date parser reads. */
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Whether `YYYY-MM-DD` names a day: one the parser would roll over (February 30th) does not. */
function isDay(day: string): boolean {
  const time = dayStart(day);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === day;
}

/** A day `storedValue` kept, as days since 1970-01-01 (Parquet's DATE). */
export function daysSince1970(day: string): number {
  return dayStart(day) / dayMs;
}

const dayMs = 86_400_000;

/**
 * The records among list elements, as the database formats write them: an element that is no object
 * has no column to go in, and is counted in `unfit` instead.
 */
export function recordsAmong(elements: readonly unknown[], unfit: UnfitValues | undefined): readonly Row[] {
  if (elements.every(isRow)) return elements as readonly Row[];
  const records = elements.filter(isRow);
  unfit?.noteNotRecords(elements.length - records.length);
  return records;
}

/**
 * The values typed columns could not hold, by column: what a run warns it wrote as null. And the list
 * elements not written: records a database could not key, by key, and elements that are no object.
 */
export class UnfitValues {
  /** A record's fields that no typed column holds: not written. */
  readonly leftOut = new LeftOutFields(
    "the columns are the API document's fields; a jsonl export keeps them all",
  );
  readonly #counts = new Map<string, { type: ColumnType; count: number }>();
  readonly #unkeyed = new Map<string, number>();
  #notRecords = 0;

  /** Counts `count` list elements not written: they were no object, so no column could hold them. */
  noteNotRecords(count: number): void {
    this.#notRecords += count;
  }

  /** Counts `count` records not written: a column of `key` had no value it could hold. */
  noteUnkeyed(key: readonly string[], count: number): void {
    const name = key.join(', ');
    this.#unkeyed.set(name, (this.#unkeyed.get(name) ?? 0) + count);
  }

  /** `12 without id`, and `2 that are no object`; `undefined` when every element was a record with its key. */
  describeUnwritten(): string | undefined {
    const parts = [...this.#unkeyed].map(([key, count]) => `${grouped(count)} without ${key}`);
    if (this.#notRecords > 0)
      parts.push(`${grouped(this.#notRecords)} that ${this.#notRecords === 1 ? 'is' : 'are'} no object`);
    return parts.length === 0 ? undefined : parts.join(', ');
  }

  /** Counts `value`, given and stored as null in the column `name` of `type`. */
  note(name: string, type: ColumnType): void {
    const known = this.#counts.get(name);
    if (known === undefined) this.#counts.set(name, { type, count: 1 });
    else known.count += 1;
  }

  /** `year (integer) 12, oa (boolean) 3`; `undefined` when every value fit. */
  describe(): string | undefined {
    if (this.#counts.size === 0) return undefined;
    return [...this.#counts]
      .map(([name, { type, count }]) => `${name} (${type}) ${grouped(count)}`)
      .join(', ');
  }
}

/**
 * The warnings a run gives when some values did not fit their typed columns, some list elements
 * could not be written (no key, or no object), or some fields had no column; `''` when none.
 */
export function unfitWarning(unfit: UnfitValues): string {
  const [what, unwritten] = [unfit.describe(), unfit.describeUnwritten()];
  return (
    (what === undefined ? '' : warningLine(`written as null, not of their column's type: ${what}`)) +
    (unwritten === undefined
      ? ''
      : warningLine(`list elements not written: ${unwritten} (a jsonl export keeps them)`)) +
    unfit.leftOut.warning()
  );
}

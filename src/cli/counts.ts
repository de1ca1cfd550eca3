/** How the command line says a count: thousands grouped, and the unit singular for one. */

/**
 * A number with its thousands grouped (`30,000`), as `toLocaleString('en')` writes it; a count
 * without calling it, whose first call loads the locale data (start-up a command need not pay).
 */
export function grouped(value: number): string {
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return value.toLocaleString('en');
  return String(value).replace(/\B(?=(\d{3})+$)/g, ',');
}

/**
 * The singular of each unit the commands pass (their spec's `unit`, a view's rows' `unit`, and the
 * progress line's): spelled out, since no rule strips every plural right (`countries`, `DOIs`).
 */
const singulars: ReadonlyMap<string, string> = new Map([
  ['authors', 'author'],
  ['countries', 'country'],
  ['DOIs', 'DOI'],
  ['journals', 'journal'],
  ['papers', 'paper'],
  ['records', 'record'],
  ['rows', 'row'],
  ['score points', 'score point'],
  ['subjects', 'subject'],
]);

/** `unit` (plural) as said after `number`: singular for exactly 1; a unit not known is kept as given. */
export function unitFor(number: number, unit: string): string {
  return number === 1 ? (singulars.get(unit) ?? unit) : unit;
}

/** `3 of 1,161 papers`, or `3 papers` without a total: the unit agrees with the number said last. */
export function countOf(count: number, total: number | undefined, unit: string): string {
  const of = total === undefined ? '' : ` of ${grouped(total)}`;
  return `${grouped(count)}${of} ${unitFor(total ?? count, unit)}`;
}

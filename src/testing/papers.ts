import { MOCK_DOIS } from './constants.js';
import * as words from './data/words.js';
import type { MockPaper } from './dataset-types.js';
import type { Random } from './random.js';
import type { AuthorRow, JournalRow, PaperDraws } from './rows.js';

const firstPaperYear = 1998;
const lastPaperYear = 2025;
/** The most authors a paper can have: its count is drawn as 1 + ⌊x² × this⌋, with x below 1. */
const maxAuthorsPerPaper = 6;
/** A title's words, in order: one drawn from each list. */
const titleLists = [words.titleOpeners, words.titleAdjectives, words.titleNouns, words.titleContexts];

/**
 * Draws every paper's numbers from `random`. The calls to `random` keep their number and order: a
 * change to either would change every record drawn after it.
 */
export function drawPapers(
  random: Random,
  count: number,
  journals: readonly JournalRow[],
  authors: readonly AuthorRow[],
): PaperDraws {
  const draws: PaperDraws = {
    count,
    journalId: new Int32Array(count),
    year: new Int32Array(count),
    citations: new Int32Array(count),
    authorCount: new Int32Array(count),
    authorIds: new Int32Array(count * maxAuthorsPerPaper),
    authorSlots: maxAuthorsPerPaper,
    titleWords: new Int32Array(count * titleLists.length),
    oa: new Uint8Array(count),
  };
  if (count === 0) return draws;
  // Heavy-tailed journal sizes: a few big journals, many small ones.
  const cumulative: number[] = [];
  let sum = 0;
  for (let i = 0; i < journals.length; i++) {
    sum += 1 / (1 - random.next() * 0.95);
    cumulative.push(sum);
  }
  const authorsByField = new Map<number, number[]>();
  for (const author of authors) {
    const list = authorsByField.get(author.field_id) ?? [];
    list.push(author.id);
    authorsByField.set(author.field_id, list);
  }
  const fieldPools = journals.map((journal) => authorsByField.get(journal.field_id));
  for (let p = 0; p < count; p++) {
    const j = lowerBound(cumulative, random.next() * sum);
    const journal = journals[j]!;
    const year = random.int(firstPaperYear, lastPaperYear);
    const age = lastPaperYear - year + 1;
    draws.journalId[p] = journal.id;
    draws.year[p] = year;
    draws.citations[p] = Math.floor(random.next() ** 3 * age * (journal.metric_score / 4 + 2));
    const authorCount = Math.min(1 + Math.floor(random.next() ** 2 * maxAuthorsPerPaper), authors.length);
    const firstSlot = p * maxAuthorsPerPaper;
    drawAuthorIds(random, draws.authorIds, firstSlot, authorCount, fieldPools[j], authors.length);
    draws.authorCount[p] = authorCount;
    for (let w = 0; w < titleLists.length; w++) {
      // The draw `random.pick` makes, kept as an index.
      draws.titleWords[p * titleLists.length + w] = random.int(0, titleLists[w]!.length - 1);
    }
    const openAccess = journal.oa || random.chance(0.12);
    draws.oa[p] = openAccess ? 1 : 0;
  }
  return draws;
}

/** Fills `count` slots from `start` with distinct author ids, most from the journal's field. */
function drawAuthorIds(
  random: Random,
  slots: Int32Array,
  start: number,
  count: number,
  fieldPool: readonly number[] | undefined,
  authorTotal: number,
): void {
  let drawn = 0;
  while (drawn < count) {
    const fromField = fieldPool !== undefined && random.chance(0.8);
    const authorId = fromField ? random.pick(fieldPool) : random.int(1, authorTotal);
    if (!includes(slots, start, start + drawn, authorId)) slots[start + drawn++] = authorId;
  }
}

function includes(values: Int32Array, from: number, to: number, value: number): boolean {
  for (let i = from; i < to; i++) if (values[i] === value) return true;
  return false;
}

/** Builds the paper records from their draws, frozen. */
export function buildPapers(draws: PaperDraws, authors: readonly AuthorRow[]): readonly MockPaper[] {
  const doiPrefixes = new Map<number, string>();
  const papers: MockPaper[] = [];
  for (let p = 0; p < draws.count; p++) {
    const id = p + 1;
    const journalId = draws.journalId[p]!;
    const year = draws.year[p]!;
    let doiPrefix = doiPrefixes.get(journalId);
    if (doiPrefix === undefined) {
      doiPrefix = `10.${5000 + (journalId % 40)}/sm.${journalId}.`;
      doiPrefixes.set(journalId, doiPrefix);
    }
    const ids = authorIdsOf(draws, p);
    const paper: MockPaper = {
      id,
      title: titleOf(draws, p),
      authors: namesOf(ids, authors),
      author_ids: Object.freeze(ids),
      doi: MOCK_DOIS[p] ?? [doiPrefix, year, '.', String(id).padStart(6, '0')].join(''),
      year,
      citations: draws.citations[p]!,
      oa: draws.oa[p] === 1,
      journal_id: journalId,
    };
    papers.push(Object.freeze(paper));
  }
  return Object.freeze(papers);
}

/** At its final length: the list is kept in the paper, where one grown by `push` would keep spare room. */
function authorIdsOf(draws: PaperDraws, p: number): number[] {
  const ids = new Array<number>(draws.authorCount[p]!);
  const start = p * draws.authorSlots;
  for (let k = 0; k < ids.length; k++) ids[k] = draws.authorIds[start + k]!;
  return ids;
}

// Strings are joined, not concatenated: V8 keeps the result of `+` or a template as a chain of its
// pieces, one object each for the garbage collector to copy, where a join makes one flat string.

function titleOf(draws: PaperDraws, p: number): string {
  const first = p * titleLists.length;
  const picked = draws.titleWords;
  return [
    titleLists[0]![picked[first]!],
    titleLists[1]![picked[first + 1]!],
    titleLists[2]![picked[first + 2]!],
    titleLists[3]![picked[first + 3]!],
  ].join(' ');
}

function namesOf(ids: readonly number[], authors: readonly AuthorRow[]): string {
  if (ids.length === 1) return authors[ids[0]! - 1]!.name;
  const names: string[] = [];
  for (let k = 0; k < ids.length; k++) names.push(authors[ids[k]! - 1]!.name);
  return names.join(', ');
}

/** First index whose cumulative weight exceeds `target`. */
function lowerBound(cumulative: readonly number[], target: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! > target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

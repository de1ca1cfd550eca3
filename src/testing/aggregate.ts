import { flagEmoji } from './data/countries.js';
import { slugify, subjectNames } from './data/subjects.js';
import type { MockAuthor, MockCountry, MockJournal, MockSubject } from './dataset-types.js';
import type { AuthorRow, CountryRow, GeneratedRecords, JournalRow, PaperDraws } from './rows.js';

/** Every record but the papers, frozen. */
export type CountedRecords = Omit<GeneratedRecords, 'papers'>;

/**
 * Derives every count (journal, author, subject and country totals, h-index) from the papers'
 * draws. Indexed loops, not `for…of`: this code runs once per process, mostly before the engine
 * optimises it, when an iterator per list costs more than the work on the list.
 */
export function aggregate(
  journalRows: readonly JournalRow[],
  authorRows: readonly AuthorRow[],
  draws: PaperDraws,
  subjectCount: number,
  countryRows: readonly CountryRow[],
): CountedRecords {
  const papersByJournal = journalRows.map((): number[] => []);
  const papersByAuthor = authorRows.map((): number[] => []);
  for (let p = 0; p < draws.count; p++) {
    papersByJournal[draws.journalId[p]! - 1]!.push(p + 1);
    const firstSlot = p * draws.authorSlots;
    for (let k = 0; k < draws.authorCount[p]!; k++) {
      papersByAuthor[draws.authorIds[firstSlot + k]! - 1]!.push(p + 1);
    }
  }
  for (const list of papersByJournal) Object.freeze(list);
  for (const list of papersByAuthor) Object.freeze(list);
  const journals: MockJournal[] = journalRows.map((row, i) => {
    const paperIds = papersByJournal[i]!;
    return Object.freeze({
      ...row,
      total_papers: paperIds.length,
      total_cites: citationsOf(paperIds, draws.citations),
    });
  });
  const hIndexCounts = new Int32Array(longestLength(papersByAuthor) + 1);
  const authors: MockAuthor[] = authorRows.map((row, i) => {
    const paperIds = papersByAuthor[i]!;
    return Object.freeze({
      ...row,
      total_papers: paperIds.length,
      total_cites: citationsOf(paperIds, draws.citations),
      h_index: hIndex(paperIds, draws.citations, hIndexCounts),
      paper_ids: paperIds,
    });
  });
  return Object.freeze({
    journals: Object.freeze(journals),
    authors: Object.freeze(authors),
    subjects: Object.freeze(subjectsOf(journals, subjectCount)),
    countries: Object.freeze(countriesOf(journals, countryRows)),
    papersByJournal: Object.freeze(papersByJournal),
  });
}

/** The first `count` subjects, each with the totals of its journals. */
function subjectsOf(journals: readonly MockJournal[], count: number): MockSubject[] {
  return subjectNames.slice(0, count).map((name, i) =>
    Object.freeze({
      id: i + 1,
      name,
      slug: slugify(name),
      ...countsOf(journals.filter((j) => j.field_id === i + 1)),
    }),
  );
}

/** The countries, each with the totals of its journals. */
function countriesOf(journals: readonly MockJournal[], countryRows: readonly CountryRow[]): MockCountry[] {
  return countryRows.map((row, i) =>
    Object.freeze({
      id: i + 1,
      name: row.name,
      code: row.code,
      flag: flagEmoji(row.code),
      ...countsOf(journals.filter((j) => j.country_id === i + 1)),
    }),
  );
}

/** `citations`: index `id - 1`, as in the draws. */
function citationsOf(paperIds: readonly number[], citations: Int32Array): number {
  let total = 0;
  for (let i = 0; i < paperIds.length; i++) total += citations[paperIds[i]! - 1]!;
  return total;
}

function longestLength(lists: readonly (readonly unknown[])[]): number {
  let longest = 0;
  for (const list of lists) longest = Math.max(longest, list.length);
  return longest;
}

/**
 * The largest h such that h of the papers have at least h citations each. Counts papers by citations
 * (capped at the number of papers, which h cannot exceed) instead of sorting them; `counts` is scratch
 * space longer than any author's list of papers.
 */
function hIndex(paperIds: readonly number[], citations: Int32Array, counts: Int32Array): number {
  const n = paperIds.length;
  counts.fill(0, 0, n + 1);
  for (let i = 0; i < n; i++) counts[Math.min(citations[paperIds[i]! - 1]!, n)]!++;
  let cited = 0; // papers with at least h citations
  for (let h = n; h > 0; h--) {
    cited += counts[h]!;
    if (cited >= h) return h;
  }
  return 0;
}

function countsOf(journals: readonly MockJournal[]): { journals: number; papers: number; citations: number } {
  let papers = 0;
  let citations = 0;
  for (const journal of journals) {
    papers += journal.total_papers;
    citations += journal.total_cites;
  }
  return { journals: journals.length, papers, citations };
}

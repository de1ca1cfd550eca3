import { flagEmoji } from './data/countries.js';
import { slugify, subjectNames } from './data/subjects.js';
import type { MockAuthor, MockCountry, MockJournal, MockPaper, MockSubject } from './dataset-types.js';
import type { AuthorRow, CountryRow, GeneratedRecords, JournalRow } from './generate.js';

/** Derives every count (journal, author, subject and country totals, h-index) from the papers. */
export function aggregate(
  journalRows: readonly JournalRow[],
  authorRows: readonly AuthorRow[],
  papers: readonly MockPaper[],
  subjectCount: number,
  countryRows: readonly CountryRow[],
): GeneratedRecords {
  const papersByJournal = journalRows.map((): number[] => []);
  const papersByAuthor = authorRows.map((): number[] => []);
  const journalCites = journalRows.map(() => 0);
  for (const paper of papers) {
    papersByJournal[paper.journal_id - 1]!.push(paper.id);
    journalCites[paper.journal_id - 1]! += paper.citations;
    for (const authorId of paper.author_ids) papersByAuthor[authorId - 1]!.push(paper.id);
  }
  const journals: MockJournal[] = journalRows.map((row, i) => ({
    ...row,
    total_papers: papersByJournal[i]!.length,
    total_cites: journalCites[i]!,
  }));
  const authors: MockAuthor[] = authorRows.map((row, i) => {
    const paperIds = papersByAuthor[i]!;
    const cites = paperIds.map((id) => papers[id - 1]!.citations);
    return {
      ...row,
      total_papers: paperIds.length,
      total_cites: cites.reduce((a, b) => a + b, 0),
      h_index: hIndex(cites),
      paper_ids: paperIds,
    };
  });
  const subjects: MockSubject[] = subjectNames.slice(0, subjectCount).map((name, i) => ({
    id: i + 1,
    name,
    slug: slugify(name),
    ...countsOf(journals.filter((j) => j.field_id === i + 1)),
  }));
  const countries: MockCountry[] = countryRows.map((row, i) => ({
    id: i + 1,
    name: row.name,
    code: row.code,
    flag: flagEmoji(row.code),
    ...countsOf(journals.filter((j) => j.country_id === i + 1)),
  }));
  return { journals, papers: [...papers], authors, subjects, countries, papersByJournal };
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

function hIndex(citations: readonly number[]): number {
  const sorted = [...citations].sort((a, b) => b - a);
  let h = 0;
  while (h < sorted.length && sorted[h]! >= h + 1) h++;
  return h;
}

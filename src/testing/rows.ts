/** The rows the mock's dataset is generated from, shared by its generator, papers and totals. */
import type { MockAuthor, MockCountry, MockJournal, MockPaper, MockSubject } from './dataset-types.js';

/** The generated records, before lookups are attached. Frozen, arrays and records alike. */
export interface GeneratedRecords {
  readonly journals: readonly MockJournal[];
  readonly papers: readonly MockPaper[];
  readonly authors: readonly MockAuthor[];
  readonly subjects: readonly MockSubject[];
  readonly countries: readonly MockCountry[];
  /** Index `j - 1`: ids of journal `j`'s papers, ascending. */
  readonly papersByJournal: readonly (readonly number[])[];
}

export interface CountryRow {
  readonly name: string;
  readonly code: string;
}

export type JournalRow = Omit<MockJournal, 'total_papers' | 'total_cites'>;

export type AuthorRow = Pick<MockAuthor, 'id' | 'name' | 'orcid' | 'affil' | 'country_id' | 'field_id'>;

/**
 * What the seed decides about each paper, as numbers: at index `id - 1`, or from `(id - 1) * slots`
 * where a paper has several. Journal and author totals need only these; the records, with their
 * strings, are built from them by `buildPapers` once something reads a paper.
 */
export interface PaperDraws {
  readonly count: number;
  readonly journalId: Int32Array;
  readonly year: Int32Array;
  readonly citations: Int32Array;
  readonly authorCount: Int32Array;
  /** `authorSlots` per paper, the first `authorCount` used. */
  readonly authorIds: Int32Array;
  readonly authorSlots: number;
  /** One index into each of the title word lists per paper. */
  readonly titleWords: Int32Array;
  readonly oa: Uint8Array;
}

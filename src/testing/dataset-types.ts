/**
 * Records of the mock's dataset. Fields named as on the wire are exactly the API's; the extra fields
 * (`author_ids`, `paper_ids`, `code`…) link records together and are never sent.
 */

/**
 * One entry of a journal's score history.
 *
 * @example
 * ```ts
 * const latest: MockScoreEntry = api.dataset.journal(1)!.history[0]!; // { date: '2024-12-31', score: 9 }
 * ```
 */
export interface MockScoreEntry {
  /** `YYYY-MM-DD`. */
  readonly date: string;
  readonly score: number;
}

/**
 * A journal with everything the list, the profile and the score endpoints serve.
 *
 * @example
 * ```ts
 * const q1: MockJournal[] = api.dataset.journals.filter((j) => j.quartile === 'Q1');
 * ```
 */
export interface MockJournal {
  readonly id: number;
  readonly name: string;
  readonly issn: string;
  readonly metric_score: number;
  readonly quartile: string;
  readonly country_id: number;
  readonly field_id: number;
  readonly total_papers: number;
  readonly total_cites: number;
  readonly description: string;
  readonly oa: boolean;
  /** Newest first; `history[0].score` is `metric_score`. */
  readonly history: readonly MockScoreEntry[];
}

/**
 * A paper. `authors` is the display string; `author_ids` links to {@link MockAuthor}.
 *
 * @example
 * ```ts
 * const paper: MockPaper = api.dataset.paperByDoi('10.1000/abc/def')!;
 * ```
 */
export interface MockPaper {
  readonly id: number;
  readonly title: string;
  readonly authors: string;
  readonly author_ids: readonly number[];
  readonly doi: string;
  readonly year: number;
  readonly citations: number;
  readonly oa: boolean;
  readonly journal_id: number;
}

/**
 * An author. `country_id` and `field_id` serve the author list's filters.
 *
 * @example
 * ```ts
 * const prolific: MockAuthor = [...api.dataset.authors].sort((a, b) => b.total_papers - a.total_papers)[0]!;
 * ```
 */
export interface MockAuthor {
  readonly id: number;
  readonly name: string;
  readonly orcid: string;
  readonly affil: string;
  readonly country_id: number;
  readonly field_id: number;
  readonly total_papers: number;
  readonly total_cites: number;
  readonly h_index: number;
  /** Ids of the author's papers, ascending. */
  readonly paper_ids: readonly number[];
}

/**
 * A subject area; journals' and authors' `field_id` points here.
 *
 * @example
 * ```ts
 * const bySlug = new Map(api.dataset.subjects.map((s: MockSubject) => [s.slug, s]));
 * ```
 */
export interface MockSubject {
  readonly id: number;
  readonly name: string;
  readonly slug: string;
  readonly journals: number;
  readonly papers: number;
  readonly citations: number;
}

/**
 * A country; `journals` is 0 for countries that `show=active` leaves out.
 *
 * @example
 * ```ts
 * const inactive: MockCountry[] = api.dataset.countries.filter((c) => c.journals === 0);
 * ```
 */
export interface MockCountry {
  readonly id: number;
  readonly name: string;
  /** ISO 3166-1 alpha-2. */
  readonly code: string;
  readonly flag: string;
  readonly journals: number;
  readonly papers: number;
  readonly citations: number;
}

/**
 * How many records of each kind to generate.
 *
 * @example
 * ```ts
 * createMockApi({ sizes: { journals: 20, papers: 500, authors: 50 } }); // a quick, small mock
 * ```
 */
export interface MockDatasetSizes {
  /** At most 10,000 (`MOCK_MAX_SIZES`). @default 400 */
  readonly journals?: number | undefined;
  /** At most 1,000,000 (`MOCK_MAX_SIZES`). @default 30000 */
  readonly papers?: number | undefined;
  /** At most 100,000 (`MOCK_MAX_SIZES`). @default 3000 */
  readonly authors?: number | undefined;
  /** At most 30 (`MOCK_MAX_SIZES`). @default 25 */
  readonly subjects?: number | undefined;
  /** At most 72 (`MOCK_MAX_SIZES`). @default 60 */
  readonly countries?: number | undefined;
}

/**
 * The generated dataset: arrays in id order (id `n` at index `n - 1`) plus lookups.
 *
 * @example
 * ```ts
 * const { dataset } = createMockApi();
 * const paper = dataset.paperByDoi('10.1000/abc/def');
 * const journal = dataset.journal(paper!.journal_id);
 * ```
 */
export interface MockDataset {
  readonly seed: number;
  readonly journals: readonly MockJournal[];
  readonly papers: readonly MockPaper[];
  readonly authors: readonly MockAuthor[];
  readonly subjects: readonly MockSubject[];
  readonly countries: readonly MockCountry[];
  journal(id: number): MockJournal | undefined;
  paper(id: number): MockPaper | undefined;
  author(id: number): MockAuthor | undefined;
  /** Case-insensitive, as DOIs are. */
  paperByDoi(doi: string): MockPaper | undefined;
  /** Ids of a journal's papers, ascending. */
  journalPaperIds(journalId: number): readonly number[];
  /** The paper's abstract, generated on first use (it is the largest field, and rarely read). */
  abstractOf(paper: MockPaper): string;
}

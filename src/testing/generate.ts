import { aggregate } from './aggregate.js';
import { countryNames } from './data/countries.js';
import { subjectNames } from './data/subjects.js';
import * as words from './data/words.js';
import type { MockDatasetSizes, MockPaper, MockScoreEntry } from './dataset-types.js';
import { issnFromNumber, orcidFromNumber, quartileOf } from './identifiers.js';
import { resolveMockSizes } from './options.js';
import { buildPapers, drawPapers } from './papers.js';
import { createRandom, type Random } from './random.js';
import type { AuthorRow, CountryRow, GeneratedRecords, JournalRow } from './rows.js';

/** Sizes after defaults, all integers. */
export type ResolvedSizes = Required<MockDatasetSizes>;

const defaultSizes: ResolvedSizes = {
  journals: 400,
  papers: 30_000,
  authors: 3_000,
  subjects: 25,
  countries: 60,
};

/** Share of countries left without journals, so `show=active` and `show=all` differ. */
const inactiveCountryShare = 0.2;
/** Last year with a history entry: later entries come only from `updateScore`, dated by the clock. */
const lastHistoryYear = 2024;

/**
 * The largest dataset sizes: together about a gigabyte of records, within Node's default heap. Past
 * them, generation would end in an out-of-memory abort rather than an error.
 *
 * @example
 * ```ts
 * createMockApi({ sizes: { papers: MOCK_MAX_SIZES.papers + 1 } }); // throws ConfigurationError: …from 0 to 1000000
 * ```
 */
export const MOCK_MAX_SIZES = Object.freeze({
  journals: 10_000,
  papers: 1_000_000,
  authors: 100_000,
  // As many as the mock has names for.
  subjects: subjectNames.length,
  countries: countryNames.length,
} as const);

/** Applies defaults and refuses sizes past the maxima or that the generator cannot honour. */
export function resolveSizes(sizes?: MockDatasetSizes): ResolvedSizes {
  return resolveMockSizes(sizes, defaultSizes, MOCK_MAX_SIZES);
}

/**
 * Generates every record from the seed. Same seed and sizes → same records, on every runtime.
 * Records are frozen where they are made: mocks share them.
 */
export function generateRecords(seed: number, sizes: ResolvedSizes): GeneratedRecords {
  const random = createRandom(seed);
  const countryRows = makeCountries(random, sizes.countries);
  const activeCountryIds = pickActiveCountries(random, countryRows.length);
  const journalRows = makeJournals(random, sizes.journals, sizes.subjects, countryRows, activeCountryIds);
  const authorRows = makeAuthors(random, sizes.authors, sizes.subjects, countryRows);
  const draws = drawPapers(random, sizes.papers, journalRows, authorRows);
  const counted = aggregate(journalRows, authorRows, draws, sizes.subjects, countryRows);
  let papers: readonly MockPaper[] | undefined;
  return Object.freeze({
    journals: counted.journals,
    // Built on first read: the totals above need only the draws, and many mocks (a command line
    // asking for journals, subjects or countries) never read a paper.
    get papers() {
      papers ??= buildPapers(draws, authorRows);
      return papers;
    },
    authors: counted.authors,
    subjects: counted.subjects,
    countries: counted.countries,
    papersByJournal: counted.papersByJournal,
  });
}

function makeCountries(random: Random, count: number): CountryRow[] {
  const chosen = shuffle(random, [...countryNames]).slice(0, count);
  return chosen
    .map(([name, code]) => ({ name, code }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function pickActiveCountries(random: Random, count: number): number[] {
  const ids = shuffle(
    random,
    Array.from({ length: count }, (_, i) => i + 1),
  );
  const activeCount = Math.max(1, count - Math.round(count * inactiveCountryShare));
  return ids.slice(0, activeCount).sort((a, b) => a - b);
}

function makeJournals(
  random: Random,
  count: number,
  subjectCount: number,
  countries: readonly CountryRow[],
  activeCountryIds: readonly number[],
): JournalRow[] {
  const used = new Set<string>();
  const rows: JournalRow[] = [];
  for (let id = 1; id <= count; id++) {
    const fieldId = random.int(1, subjectCount);
    // Earlier active countries publish more: a skew like the real world's.
    const countryId = activeCountryIds[Math.floor(random.next() ** 1.6 * activeCountryIds.length)]!;
    const subject = subjectNames[fieldId - 1]!;
    const base = random.chance(0.3) ? `${random.pick(words.journalQualifiers)} ${subject}` : subject;
    let name = random.pick(words.journalForms).replace('%', base);
    for (let series = 2; used.has(name); series++)
      name = `${name.replace(/ \(Series \d+\)$/, '')} (Series ${series})`;
    used.add(name);
    const score = Math.max(1, Math.min(100, Math.round(8 + 92 * random.next() ** 1.2)));
    const founded = random.int(1950, 2015);
    const country = countries[countryId - 1]!;
    rows.push({
      id,
      name,
      issn: issnFromNumber(1_000_000 + id * 7_919),
      metric_score: score,
      quartile: quartileOf(score),
      country_id: countryId,
      field_id: fieldId,
      description: `${name} publishes peer-reviewed research in ${subject.toLowerCase()} from ${country.name} and beyond. Founded in ${founded}.`,
      oa: random.chance(0.3),
      history: makeHistory(random, score),
    });
  }
  return rows;
}

function makeHistory(random: Random, current: number): readonly MockScoreEntry[] {
  const history: MockScoreEntry[] = [];
  let score = current;
  const length = random.int(4, 12);
  for (let k = 0; k < length; k++) {
    history.push(Object.freeze({ date: `${lastHistoryYear - k}-12-31`, score }));
    score = Math.max(1, Math.min(100, score + random.int(-8, 8)));
  }
  return Object.freeze(history);
}

function makeAuthors(
  random: Random,
  count: number,
  subjectCount: number,
  countries: readonly CountryRow[],
): AuthorRow[] {
  const rows: AuthorRow[] = [];
  for (let id = 1; id <= count; id++) {
    const countryId = random.int(1, countries.length);
    const institution = random.pick(words.institutionForms).replace('%', random.pick(words.places));
    rows.push({
      id,
      name: `${random.pick(words.firstNames)} ${random.pick(words.lastNames)}`,
      orcid: orcidFromNumber(id * 1_733),
      affil: `${institution}, ${countries[countryId - 1]!.name}`,
      country_id: countryId,
      field_id: random.int(1, subjectCount),
    });
  }
  return rows;
}

function shuffle<T>(random: Random, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

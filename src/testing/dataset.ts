import { MOCK_DEFAULT_SEED } from './constants.js';
import * as words from './data/words.js';
import type { MockDataset, MockDatasetSizes, MockJournal, MockPaper } from './dataset-types.js';
import { generateRecords, resolveSizes } from './generate.js';
import { checkMockSeed } from './options.js';
import { createRandom, deriveSeed } from './random.js';
import { RecentMemo } from './recent-memo.js';
import type { GeneratedRecords } from './rows.js';

// Test suites create many mocks with the same seed: generating once per seed and sizes keeps each
// `createMockApi()` under a millisecond. A few entries only, so property tests over random seeds
// cannot grow the cache without bound.
const recentRecords = new RecentMemo<GeneratedRecords>(4);

function recordsFor(seed: number, sizes: MockDatasetSizes | undefined): GeneratedRecords {
  checkMockSeed('seed', seed);
  const resolved = resolveSizes(sizes);
  const key = `${seed}:${resolved.journals}:${resolved.papers}:${resolved.authors}:${resolved.subjects}:${resolved.countries}`;
  return recentRecords.get(key, () => generateRecords(seed, resolved));
}

// The DOI index depends only on the shared papers, so every mock of a seed and sizes shares one
// instead of indexing every paper on its first `papers.get`.
const doiIndexes = new WeakMap<readonly MockPaper[], ReadonlyMap<string, MockPaper>>();

function doiIndexOf(papers: readonly MockPaper[]): ReadonlyMap<string, MockPaper> {
  let index = doiIndexes.get(papers);
  if (index === undefined) {
    index = new Map(papers.map((paper) => [doiKey(paper.doi), paper]));
    doiIndexes.set(papers, index);
  }
  return index;
}

/**
 * A dataset whose journals can change (through `updateScore`) without touching the shared cache:
 * the journal array is this mock's own copy; everything else is shared and frozen.
 */
export interface MutableDataset extends MockDataset {
  /** Replaces a journal record (same id). */
  replaceJournal(journal: MockJournal): void;
}

/** Builds the dataset for a seed and sizes. Deterministic: same arguments, same records. */
export function createDataset(seed: number = MOCK_DEFAULT_SEED, sizes?: MockDatasetSizes): MutableDataset {
  const records = recordsFor(seed, sizes);
  const journals = [...records.journals];
  const byId = <T>(items: readonly T[], id: number): T | undefined =>
    Number.isSafeInteger(id) && id >= 1 ? items[id - 1] : undefined;
  return {
    seed,
    journals,
    get papers() {
      return records.papers; // built on first read
    },
    authors: records.authors,
    subjects: records.subjects,
    countries: records.countries,
    journal: (id) => byId(journals, id),
    paper: (id) => byId(records.papers, id),
    author: (id) => byId(records.authors, id),
    paperByDoi: (doi) => doiIndexOf(records.papers).get(doiKey(doi)),
    journalPaperIds: (journalId) => byId(records.papersByJournal, journalId) ?? [],
    abstractOf: (paper) => makeAbstract(seed, paper),
    replaceJournal(journal) {
      if (journals[journal.id - 1] === undefined) throw new RangeError(`No journal with id ${journal.id}`);
      journals[journal.id - 1] = Object.freeze(journal);
    },
  };
}

/** DOIs are case-insensitive (DOI Handbook §2.4); NFC makes composed and decomposed letters equal. */
function doiKey(doi: string): string {
  return doi.normalize('NFC').toLowerCase();
}

function makeAbstract(seed: number, paper: MockPaper): string {
  const random = createRandom(deriveSeed(seed, paper.id));
  const sentences = [0, 1, 2, 3].map(() => random.pick(words.abstractSentences));
  return [...new Set(sentences)].join(' ');
}

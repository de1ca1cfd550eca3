/**
 * The fields each command's records have, for `--fields`: known before any request, so a misspelt
 * field is refused with the list of valid ones, and an empty csv or tsv still gets its header. Taken
 * from the response schemas where the API publishes a shape; the paper summary has none published,
 * so its fields are those the API sends (see `PaperSummary`).
 */
import { authorProfileSchema, authorSchema } from '../schemas/authors.js';
import { countrySchema } from '../schemas/countries.js';
import {
  journalPaperSchema,
  journalProfileSchema,
  journalSchema,
  scoreHistorySchema,
  scorePointSchema,
} from '../schemas/journals.js';
import { type PaperSummary, paperSchema } from '../schemas/papers.js';
import { subjectSchema } from '../schemas/subjects.js';
import type { FieldTree } from './output/fields.js';

const flat = (names: readonly string[]): FieldTree => Object.fromEntries(names.map((name) => [name, null]));
const keysOf = (schema: { shape: object }) => Object.keys(schema.shape);

const paperSummaryFields: readonly (keyof PaperSummary)[] = [
  'id',
  'title',
  'authors',
  'doi',
  'year',
  'citations',
  'oa',
  'journal_id',
];
const paperSummary = flat(paperSummaryFields);
const scorePoint = flat(keysOf(scorePointSchema));

export const recordFields = {
  journal: flat(keysOf(journalSchema)),
  journalProfile: flat(keysOf(journalProfileSchema)),
  journalPaper: flat(keysOf(journalPaperSchema)),
  /** `--format json` writes the whole record; csv, tsv and jsonl a row per point with its journal's id. */
  score: { ...flat(keysOf(scoreHistorySchema)), history: scorePoint, journal_id: null, ...scorePoint },
  paperSummary,
  paper: flat(keysOf(paperSchema)),
  author: flat(keysOf(authorSchema)),
  authorProfile: { ...flat(keysOf(authorProfileSchema)), papers: paperSummary },
  subject: flat(keysOf(subjectSchema)),
  country: flat(keysOf(countrySchema)),
} satisfies Record<string, FieldTree>;

/** The top-level fields of `tree`: the header of an empty list. */
export function topFields(tree: FieldTree): string[] {
  return Object.keys(tree);
}

/**
 * The fields each command's records have, for `--fields`: known before any request, so a misspelt
 * field is refused with the list of valid ones, and an empty csv or tsv still gets its header. Taken
 * from the response schemas where the API publishes a shape (listed at build time, so that the command
 * line loads no zod for them); the paper summary has none published, so its fields are those the API
 * sends (see `PaperSummary`).
 */
import { schemaFields } from '../schemas/fields.generated.js';
import type { PaperSummary } from '../schemas/papers.js';
import type { FieldTree } from './output/fields.js';

const flat = (names: readonly string[]): FieldTree => Object.fromEntries(names.map((name) => [name, null]));

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
const scorePoint = flat(schemaFields.scorePoint);

export const recordFields = {
  journal: flat(schemaFields.journal),
  journalProfile: flat(schemaFields.journalProfile),
  journalPaper: flat(schemaFields.journalPaper),
  /** `--format json` writes the whole record; csv, tsv and jsonl a row per point with its journal's id. */
  score: { ...flat(schemaFields.scoreHistory), history: scorePoint, journal_id: null, ...scorePoint },
  paperSummary,
  paper: flat(schemaFields.paper),
  author: flat(schemaFields.author),
  authorProfile: { ...flat(schemaFields.authorProfile), papers: paperSummary },
  subject: flat(schemaFields.subject),
  country: flat(schemaFields.country),
} satisfies Record<string, FieldTree>;

/** The top-level fields of `tree`: the header of an empty list. */
export function topFields(tree: FieldTree): string[] {
  return Object.keys(tree);
}

import { authorPageSchema, authorProfileSchema } from './authors.js';
import { countryListSchema } from './countries.js';
import {
  journalListSchema,
  journalPaperPageSchema,
  journalProfileSchema,
  scoreHistorySchema,
} from './journals.js';
import { paperSchema, paperSummaryPageSchema } from './papers.js';
import { subjectListSchema } from './subjects.js';

/** Every response body of the API, by name; scripts/generate-parsers.ts compiles each one. */
export const responseSchemas = {
  journalList: journalListSchema,
  journalProfile: journalProfileSchema,
  journalPaperPage: journalPaperPageSchema,
  scoreHistory: scoreHistorySchema,
  paperSummaryPage: paperSummaryPageSchema,
  paper: paperSchema,
  authorPage: authorPageSchema,
  authorProfile: authorProfileSchema,
  subjectList: subjectListSchema,
  countryList: countryListSchema,
};

// zod's bounded check and the English for its issues come with the schemas, in their chunk: a body the
// generated parser leaves to zod is nearly always one zod refuses, and one chunk downloads lighter than two.
export { checkWithZod } from '../core/zod-check.js';

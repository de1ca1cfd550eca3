import type * as z from 'zod/mini';
import { type INVALID, withParser } from 'zod/v4/core';
import type { ResponseShape } from '../core/validate.js';
import { parsers } from './parsers.generated.js';
import { responseSchemas as schemas } from './response-schemas.js';

/**
 * A response's zod schema with its build-time parser installed as zod's fast path (`withParser`):
 * `safeParse` runs the generated parser first, and zod's own runtime decides and explains whatever
 * that parser refuses.
 */
function shape<S extends z.ZodMiniType>(
  schema: S,
  parser: (input: unknown) => z.output<S> | typeof INVALID,
  label: string,
): ResponseShape<z.output<S>> {
  return { label, schema: withParser(schema, parser) };
}

/** Every response the client checks, by name. */
export const shapes = {
  journalList: shape(schemas.journalList, parsers.journalList, 'a journal list'),
  journalProfile: shape(schemas.journalProfile, parsers.journalProfile, 'a journal profile'),
  journalPaperPage: shape(schemas.journalPaperPage, parsers.journalPaperPage, 'a page of journal papers'),
  scoreHistory: shape(schemas.scoreHistory, parsers.scoreHistory, 'a score history'),
  paperSummaryPage: shape(schemas.paperSummaryPage, parsers.paperSummaryPage, 'a page of papers'),
  paper: shape(schemas.paper, parsers.paper, 'a paper'),
  authorPage: shape(schemas.authorPage, parsers.authorPage, 'a page of authors'),
  authorProfile: shape(schemas.authorProfile, parsers.authorProfile, 'an author profile'),
  subjectList: shape(schemas.subjectList, parsers.subjectList, 'a subject list'),
  countryList: shape(schemas.countryList, parsers.countryList, 'a country list'),
};

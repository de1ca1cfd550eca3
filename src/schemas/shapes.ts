import type * as z from 'zod/mini';
import type { INVALID } from '../core/parser-sentinel.js';
import type { ResponseShape } from '../core/validate.js';
import { parsers } from './parsers.generated.js';
import type { responseSchemas } from './response-schemas.js';

type Schemas = typeof responseSchemas;

const loadSchemas = () => import('./response-schemas.js');

/**
 * A response's build-time parser, with its zod schema loaded on the first body that parser leaves
 * to zod: a body the parser takes never needs zod's runtime, so it stays out of the first load.
 */
function shape<S extends z.ZodMiniType>(
  parse: (input: unknown) => z.output<S> | typeof INVALID,
  pick: (schemas: Schemas) => S,
  label: string,
): ResponseShape<z.output<S>> {
  return {
    label,
    parse,
    zod: () =>
      loadSchemas().then((schemas) => ({
        schema: pick(schemas.responseSchemas),
        explain: schemas.toValidationIssues,
      })),
  };
}

/** Every response the client checks, by name. */
export const shapes = {
  journalList: shape(parsers.journalList, (s) => s.journalList, 'a journal list'),
  journalProfile: shape(parsers.journalProfile, (s) => s.journalProfile, 'a journal profile'),
  journalPaperPage: shape(parsers.journalPaperPage, (s) => s.journalPaperPage, 'a page of journal papers'),
  scoreHistory: shape(parsers.scoreHistory, (s) => s.scoreHistory, 'a score history'),
  paperSummaryPage: shape(parsers.paperSummaryPage, (s) => s.paperSummaryPage, 'a page of papers'),
  paper: shape(parsers.paper, (s) => s.paper, 'a paper'),
  authorPage: shape(parsers.authorPage, (s) => s.authorPage, 'a page of authors'),
  authorProfile: shape(parsers.authorProfile, (s) => s.authorProfile, 'an author profile'),
  subjectList: shape(parsers.subjectList, (s) => s.subjectList, 'a subject list'),
  countryList: shape(parsers.countryList, (s) => s.countryList, 'a country list'),
};

import type { PageBody } from '../core/pagination.js';
import type { ResponseShape } from '../core/validate.js';
import type { Author, AuthorProfile } from './authors.js';
import type { Country } from './countries.js';
import type { Journal, JournalPaper, JournalProfile, ScoreHistory } from './journals.js';
import type { Paper, PaperSummary } from './papers.js';
import * as fast from './parsers.generated.js';
import { responseSchemas as schemas } from './response-schemas.js';
import type { Subject } from './subjects.js';

/** Every response the client checks: its name in messages, its zod schema, its generated parser. */
export const shapes = {
  journalList: { name: 'a journal list', schema: schemas.journalList, fast: fast.journalList },
  journalProfile: { name: 'a journal profile', schema: schemas.journalProfile, fast: fast.journalProfile },
  journalPaperPage: {
    name: 'a page of journal papers',
    schema: schemas.journalPaperPage,
    fast: fast.journalPaperPage,
  },
  scoreHistory: { name: 'a score history', schema: schemas.scoreHistory, fast: fast.scoreHistory },
  paperSummaryPage: {
    name: 'a page of papers',
    schema: schemas.paperSummaryPage,
    fast: fast.paperSummaryPage,
  },
  paper: { name: 'a paper', schema: schemas.paper, fast: fast.paper },
  authorPage: { name: 'a page of authors', schema: schemas.authorPage, fast: fast.authorPage },
  authorProfile: { name: 'an author profile', schema: schemas.authorProfile, fast: fast.authorProfile },
  subjectList: { name: 'a subject list', schema: schemas.subjectList, fast: fast.subjectList },
  countryList: { name: 'a country list', schema: schemas.countryList, fast: fast.countryList },
} satisfies Record<keyof typeof schemas, ResponseShape<unknown>> as {
  journalList: ResponseShape<Journal[]>;
  journalProfile: ResponseShape<JournalProfile>;
  journalPaperPage: ResponseShape<PageBody<JournalPaper>>;
  scoreHistory: ResponseShape<ScoreHistory>;
  paperSummaryPage: ResponseShape<PageBody<PaperSummary>>;
  paper: ResponseShape<Paper>;
  authorPage: ResponseShape<PageBody<Author>>;
  authorProfile: ResponseShape<AuthorProfile>;
  subjectList: ResponseShape<Subject[]>;
  countryList: ResponseShape<Country[]>;
};

import type { PageBody } from '../core/pagination.js';
import type { ResponseShape } from '../core/validate.js';
import type { Author, AuthorProfile } from './authors.js';
import type { Country } from './countries.js';
import type { Journal, JournalPaper, JournalProfile, ScoreHistory } from './journals.js';
import type { Paper, PaperSummary } from './papers.js';
import * as parsers from './parsers.generated.js';
import type { responseSchemas } from './response-schemas.js';
import type { Subject } from './subjects.js';

type Name = keyof typeof responseSchemas;

function shape<T>(name: Name, label: string, parse: (input: unknown) => unknown): ResponseShape<T> {
  return {
    name: label,
    parse: parse as ResponseShape<T>['parse'],
    // zod and the schemas load on the first refused body only (see ResponseShape).
    explain: (value) => import('./explain.js').then((m) => m.explain(name, value)),
  };
}

/** Every response the client checks. */
export const shapes = {
  journalList: shape<Journal[]>('journalList', 'a journal list', parsers.journalList),
  journalProfile: shape<JournalProfile>('journalProfile', 'a journal profile', parsers.journalProfile),
  journalPaperPage: shape<PageBody<JournalPaper>>(
    'journalPaperPage',
    'a page of journal papers',
    parsers.journalPaperPage,
  ),
  scoreHistory: shape<ScoreHistory>('scoreHistory', 'a score history', parsers.scoreHistory),
  paperSummaryPage: shape<PageBody<PaperSummary>>(
    'paperSummaryPage',
    'a page of papers',
    parsers.paperSummaryPage,
  ),
  paper: shape<Paper>('paper', 'a paper', parsers.paper),
  authorPage: shape<PageBody<Author>>('authorPage', 'a page of authors', parsers.authorPage),
  authorProfile: shape<AuthorProfile>('authorProfile', 'an author profile', parsers.authorProfile),
  subjectList: shape<Subject[]>('subjectList', 'a subject list', parsers.subjectList),
  countryList: shape<Country[]>('countryList', 'a country list', parsers.countryList),
};

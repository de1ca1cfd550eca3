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

function shape<T>(name: Name, label: string): ResponseShape<T> {
  return {
    name: label,
    parse: parsers[name] as ResponseShape<T>['parse'],
    // zod and the schemas load on the first refused body only (see ResponseShape).
    explain: (value) => import('./explain.js').then((m) => m.explain(name, value)),
  };
}

/** Every response the client checks. */
export const shapes = {
  journalList: shape<Journal[]>('journalList', 'a journal list'),
  journalProfile: shape<JournalProfile>('journalProfile', 'a journal profile'),
  journalPaperPage: shape<PageBody<JournalPaper>>('journalPaperPage', 'a page of journal papers'),
  scoreHistory: shape<ScoreHistory>('scoreHistory', 'a score history'),
  paperSummaryPage: shape<PageBody<PaperSummary>>('paperSummaryPage', 'a page of papers'),
  paper: shape<Paper>('paper', 'a paper'),
  authorPage: shape<PageBody<Author>>('authorPage', 'a page of authors'),
  authorProfile: shape<AuthorProfile>('authorProfile', 'an author profile'),
  subjectList: shape<Subject[]>('subjectList', 'a subject list'),
  countryList: shape<Country[]>('countryList', 'a country list'),
};

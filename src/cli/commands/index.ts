/** The commands of the program, in the order its help lists them, each group where its first command is. */
import type { CliCommand } from '../endpoint-command.js';
import { authorsGet } from './authors-get.js';
import { authorsList } from './authors-list.js';
import { countriesList } from './countries-list.js';
import { journalsGet } from './journals-get.js';
import { journalsList } from './journals-list.js';
import { journalsPapers } from './journals-papers.js';
import { journalsScore } from './journals-score.js';
import { papersGet } from './papers-get.js';
import { papersGetMany } from './papers-get-many.js';
import { papersSearch } from './papers-search.js';
import { subjectsList } from './subjects-list.js';
import { sync } from './sync.js';

export const cliCommands: readonly CliCommand[] = [
  journalsList,
  journalsGet,
  journalsPapers,
  journalsScore,
  papersSearch,
  papersGet,
  papersGetMany,
  authorsList,
  authorsGet,
  subjectsList,
  countriesList,
  sync,
];

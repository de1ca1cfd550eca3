/** The commands of the program, in the order its help lists them, each group where its first command is. */
import type { endpoints } from '../../api/endpoints.js';
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

type Table = typeof endpoints;
/** A command for each endpoint of the table, by its namespace and verb, as the mock has a handler for each. */
type EndpointCommands = { readonly [S in keyof Table]: { readonly [V in keyof Table[S]]: CliCommand } };

/** The command of each endpoint, in the table's order: an endpoint added there without one does not compile. */
const endpointCommands: EndpointCommands = {
  journals: { list: journalsList, get: journalsGet, papers: journalsPapers, score: journalsScore },
  papers: { search: papersSearch, get: papersGet },
  authors: { list: authorsList, get: authorsGet },
  subjects: { list: subjectsList },
  countries: { list: countriesList },
};

/**
 * The endpoints' commands, then those of the command line's own: `papers get-many` joins its group
 * after the group's endpoint commands, and `sync` is a group of its own.
 */
export const cliCommands: readonly CliCommand[] = [
  ...Object.values(endpointCommands).flatMap((group): CliCommand[] => Object.values(group)),
  papersGetMany,
  sync,
];

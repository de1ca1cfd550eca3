import type { APIPromise } from '../core/api-promise.js';
import { type RequestOptions, requestOptionNames } from '../core/options/request.js';
import type { PagePromise, PageRequestOptions } from '../core/pagination.js';
import { checkId, checkPositiveInteger, checkQuery, type ParamChecks } from '../core/params.js';
import { segment } from '../core/path.js';
import { APIResource, pageOptionNames, type ResourceMethod } from '../core/resource.js';
import type { Journal, JournalPaper, JournalProfile, ScoreHistory } from '../schemas/journals.js';
import { shapes } from '../schemas/shapes.js';

/**
 * Parameters of {@link Journals.papers}.
 *
 * @example
 * ```ts
 * import type { JournalPapersParams } from 'scholarly-metrics';
 *
 * const params: JournalPapersParams = { page: 3, per_page: 50 };
 * const page = await client.journals.papers(42, params); // papers 101 to 150
 * ```
 */
export interface JournalPapersParams {
  /** The page to start from (1-based). @default 1 */
  page?: number | undefined;
  /** Papers per page. @default the server's */
  per_page?: number | undefined;
}

/** What each method takes: its parameters, and the names of its request options. */
const spec = {
  list: { method: 'journals.list', checks: {}, options: requestOptionNames },
  get: { method: 'journals.get', checks: {}, options: requestOptionNames },
  score: { method: 'journals.score', checks: {}, options: requestOptionNames },
  papers: {
    method: 'journals.papers',
    leading: 'id, ',
    checks: {
      page: checkPositiveInteger,
      per_page: checkPositiveInteger,
    } satisfies ParamChecks<JournalPapersParams>,
    options: pageOptionNames,
  },
} satisfies Record<string, ResourceMethod>;

/**
 * `client.journals`: the journal list, profiles, papers and score histories.
 *
 * @example
 * ```ts
 * const client = new MetricClient({ apiKey, baseUrl });
 * const journal = await client.journals.get(42);
 * const { history } = await client.journals.score(journal.id);
 * ```
 */
export class Journals extends APIResource {
  /**
   * Every journal. `GET /journals`
   * @example
   * ```ts
   * const journals = await client.journals.list();
   * ```
   */
  list(options?: RequestOptions): APIPromise<Journal[]> {
    return this.request(spec.list, () => ({ path: '/journals' }), shapes.journalList, options);
  }

  /**
   * One journal's full profile. `GET /journals/{id}`
   * @example
   * ```ts
   * const journal = await client.journals.get(42);
   * ```
   */
  get(id: number, options?: RequestOptions): APIPromise<JournalProfile> {
    return this.request(
      spec.get,
      () => ({ path: `/journals/${segment(checkId('id', id))}` }),
      shapes.journalProfile,
      options,
    );
  }

  /**
   * A journal's papers, page by page. `GET /journals/{id}/papers`
   * @example
   * ```ts
   * for await (const paper of client.journals.papers(42, { per_page: 50 })) console.log(paper.title);
   * ```
   */
  papers(id: number, params?: JournalPapersParams, options?: PageRequestOptions): PagePromise<JournalPaper> {
    return this.paginate(
      spec.papers,
      (page) => ({
        path: `/journals/${segment(checkId('id', id))}/papers`,
        query: checkQuery(spec.papers, params, { page }),
      }),
      shapes.journalPaperPage,
      params,
      options,
    );
  }

  /**
   * A journal's current score, quartile and score history (most recent first). `GET /journals/{id}/score`
   * @example
   * ```ts
   * const { current, history } = await client.journals.score(42);
   * ```
   */
  score(id: number, options?: RequestOptions): APIPromise<ScoreHistory> {
    return this.request(
      spec.score,
      () => ({ path: `/journals/${segment(checkId('id', id))}/score` }),
      shapes.scoreHistory,
      options,
    );
  }
}

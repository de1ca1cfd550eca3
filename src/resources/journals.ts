import { endpoints } from '../api/endpoints.js';
import type { JournalPapersParams } from '../api/params.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options/request.js';
import type { PagePromise, PageRequestOptions } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';
import type { Journal, JournalPaper, JournalProfile, ScoreHistory } from '../schemas/journals.js';

/** What each method takes: its parameters, and the names of its request options. */
const { journals } = endpoints;

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
    return this.request(journals.list, {}, undefined, options);
  }

  /**
   * One journal's full profile. `GET /journals/{id}`
   * @example
   * ```ts
   * const journal = await client.journals.get(42);
   * ```
   */
  get(id: number, options?: RequestOptions): APIPromise<JournalProfile> {
    return this.request(journals.get, { id }, undefined, options);
  }

  /**
   * A journal's papers, page by page. `GET /journals/{id}/papers`
   * @example
   * ```ts
   * for await (const paper of client.journals.papers(42, { per_page: 50 })) console.log(paper.title);
   * ```
   */
  papers(id: number, params?: JournalPapersParams, options?: PageRequestOptions): PagePromise<JournalPaper> {
    return this.paginate(journals.papers, { id }, params, options);
  }

  /**
   * A journal's current score, quartile and score history (the API promises no order; its sample lists
   * the most recent first). `GET /journals/{id}/score`
   * @example
   * ```ts
   * const { current, history } = await client.journals.score(42);
   * ```
   */
  score(id: number, options?: RequestOptions): APIPromise<ScoreHistory> {
    return this.request(journals.score, { id }, undefined, options);
  }
}

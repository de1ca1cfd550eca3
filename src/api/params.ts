/** The parameters of the API's methods that take any, as users write them. */

/**
 * Accepted values of `show` on `/countries`, each a value {@link CountryListParams}' `show` takes. The
 * API document does not state the default, so `show` is sent only when given and the server's default
 * applies.
 */
export const SHOW_VALUES = Object.freeze(['active', 'all'] as const satisfies readonly ShowValue[]);

/**
 * Parameters of `client.journals.papers`.
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

/**
 * Parameters of `client.papers.search`.
 *
 * @example
 * ```ts
 * import type { PaperSearchParams } from 'scholarly-metrics';
 *
 * const params: PaperSearchParams = { q: 'graphene', year: 2021, oa: true, per_page: 100 };
 * for await (const paper of client.papers.search(params)) console.log(paper.doi);
 * ```
 */
export interface PaperSearchParams {
  /** Search term. */
  q?: string | undefined;
  /** Publication year. */
  year?: number | undefined;
  /** Open access only (`true`) or not open access (`false`). */
  oa?: boolean | undefined;
  /** Sort selector; the API document lists no values, so any string is sent as is. */
  sort?: string | undefined;
  /** The page to start from (1-based). @default 1 */
  page?: number | undefined;
  /** Papers per page. @default the server's */
  per_page?: number | undefined;
}

/**
 * Parameters of `client.authors.list`.
 *
 * @example
 * ```ts
 * import type { AuthorListParams } from 'scholarly-metrics';
 *
 * const params: AuthorListParams = { q: 'curie', country_id: 7 };
 * for await (const author of client.authors.list(params)) console.log(author.name, author.affil);
 * ```
 */
export interface AuthorListParams {
  /** Search term. */
  q?: string | undefined;
  /** Only authors of this country. */
  country_id?: number | undefined;
  /** Only authors of this field. */
  field_id?: number | undefined;
  /** Sort selector; the API document lists no values, so any string is sent as is. */
  sort?: string | undefined;
  /** The page to start from (1-based). @default 1 */
  page?: number | undefined;
}

/**
 * Parameters of `client.countries.list`.
 *
 * @example
 * ```ts
 * import type { CountryListParams } from 'scholarly-metrics';
 *
 * const params: CountryListParams = { show: 'all' }; // countries without journals too
 * const countries = await client.countries.list(params);
 * ```
 */
export interface CountryListParams {
  /** `active`: countries with journals; `all`: every country. @default the server's */
  show?: 'active' | 'all' | undefined;
}

type ShowValue = NonNullable<CountryListParams['show']>;

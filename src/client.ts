import { type ClientOptions, resolveClientOptions } from './core/options.js';
import { Transport } from './core/transport.js';
import { Authors } from './resources/authors.js';
import { Countries } from './resources/countries.js';
import { Journals } from './resources/journals.js';
import { Papers } from './resources/papers.js';
import { Subjects } from './resources/subjects.js';

/**
 * The client of the Scholarly Metrics REST API v1.
 *
 * @example
 * ```ts
 * import { MetricClient } from 'scholarly-metrics';
 *
 * const client = new MetricClient(); // METRIC_API_KEY and METRIC_BASE_URL from the environment
 * const journals = await client.journals.list();
 * for await (const paper of client.papers.search({ q: 'graphene' })) console.log(paper.title);
 * ```
 */
export class MetricClient {
  /** Journals: list, profile, papers, score history. */
  readonly journals: Journals;
  /** Papers: search, lookup by DOI. */
  readonly papers: Papers;
  /** Authors: list, profile. */
  readonly authors: Authors;
  /** Subject areas. */
  readonly subjects: Subjects;
  /** Countries. */
  readonly countries: Countries;

  /**
   * Throws a `MetricError` that names the option or variable to set when the key or base URL is
   * missing or malformed.
   */
  constructor(options?: ClientOptions) {
    const transport = new Transport(resolveClientOptions(options));
    this.journals = new Journals(transport);
    this.papers = new Papers(transport);
    this.authors = new Authors(transport);
    this.subjects = new Subjects(transport);
    this.countries = new Countries(transport);
  }
}

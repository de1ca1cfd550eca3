import { walkStopped } from './abort.js';
import { type WithResponse, withResponseOf } from './api-promise.js';
import { describeValue } from './describe-value.js';
import { ConfigurationError } from './errors.js';
import { isRecord } from './is-record.js';
import { onDemand } from './on-demand.js';
import type { RequestOptions } from './options/request.js';
import { checkPrefetch } from './options/request.js';
import { follow, Page, type PageSource, stateOf } from './page.js';
import type { WalkParts } from './walk.js';

/**
 * Options of paginated methods: the usual request options, and how far ahead a walk may fetch.
 *
 * @example
 * ```ts
 * import type { PageRequestOptions } from 'scholarly-metrics';
 *
 * // Four pages in flight while one is handled; the whole walk gives up after a minute.
 * const options: PageRequestOptions = { prefetch: 4, signal: AbortSignal.timeout(60_000) };
 * for await (const author of client.authors.list({ q: 'curie' }, options)) console.log(author.name);
 * ```
 */
export interface PageRequestOptions extends RequestOptions {
  /**
   * While a walk (`for await`, `.pages()`) yields one page, up to this many following pages are
   * already requested, concurrently, and still yielded in order. `0` fetches one page at a time.
   * After a rate-limited (429) request the walk drops to one page ahead.
   * @default 1
   */
  prefetch?: number | undefined;
}

/** The walk's module: loaded with the first walk, so that a page that never walks never downloads it. */
const loadWalk = onDemand(() => import('./walk.js'));

/** What the walk, loaded with the first one (walk.ts), takes from the first load. */
const walkParts: WalkParts = {
  walkStopped,
  checkPrefetch,
  stateOf,
  follow,
  ConfigurationError,
  describeValue,
  isRecord,
};

/**
 * What paginated methods return: await it for the first page, or walk every item of every page with
 * `for await`. Nothing is sent until it is awaited or walked.
 *
 * A walk ends when the items seen reach `total` (the smallest any page reported) or a page comes back
 * empty, whatever else the server says; leaving the loop early stops every further request.
 *
 * @example
 * ```ts
 * for await (const paper of client.papers.search({ q: 'graphene' })) console.log(paper.title);
 * ```
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  readonly #source: PageSource<T>;
  readonly #startPage: number;
  readonly #pageSize: number | undefined;
  readonly #options: PageRequestOptions;
  #first: Promise<WithResponse<Page<T>>> | undefined;
  /** Whether a request of this walk, its first page's included, was rate-limited (429) and retried. */
  #limited = false;

  /** Made by the client's paginated methods; `startPage` and `pageSize` are checked when sent. */
  constructor(
    source: PageSource<T>,
    startPage: number | undefined,
    pageSize: number | undefined,
    options: PageRequestOptions | undefined,
  ) {
    this.#source = source;
    this.#startPage = startPage === undefined ? 1 : startPage;
    this.#pageSize = pageSize;
    // After a 429, a walk looks a single page ahead: every request made with these options says so.
    this.#options = {
      ...options,
      onRetry: (error: unknown) => {
        this.#limited ||= (error as { status?: unknown }).status === 429;
      },
    } as PageRequestOptions;
  }

  #firstPage(): Promise<WithResponse<Page<T>>> {
    this.#first ??= (async () => {
      checkPrefetch(this.#options.prefetch);
      const start = this.#startPage;
      const answer = await this.#source.answer(start, this.#options);
      const page = new Page(answer.data, start, this.#source, this.#options, undefined, this.#pageSize);
      return withResponseOf(answer, page);
    })();
    return this.#first;
  }

  // biome-ignore lint/suspicious/noThenProperty: a PagePromise is awaitable by design.
  then<R1 = Page<T>, R2 = never>(
    onFulfilled?: ((page: Page<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#firstPage()
      .then(({ data }) => data)
      .then(onFulfilled, onRejected);
  }

  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<Page<T> | R> {
    return this.then(undefined, onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<Page<T>> {
    return this.then().finally(onFinally);
  }

  get [Symbol.toStringTag](): string {
    return 'PagePromise';
  }

  /**
   * The first page with the response it came in and its request id.
   *
   * @example
   * ```ts
   * const { data: page, requestId } = await client.papers.search({ q: 'graphene' }).withResponse();
   * console.log(page.total, requestId);
   * ```
   */
  withResponse(): Promise<WithResponse<Page<T>>> {
    return this.#firstPage();
  }

  /**
   * The first page's 2xx `Response`, its body unread and not validated.
   *
   * @example
   * ```ts
   * const response = await client.papers.search({ q: 'graphene' }).asResponse();
   * console.log(response.headers.get('content-type'));
   * ```
   */
  async asResponse(): Promise<Response> {
    checkPrefetch(this.#options.prefetch);
    return this.#source.raw(this.#startPage, this.#options);
  }

  /**
   * At most `limit` items, walking as many pages as that takes and not one more: no page past the
   * one that holds the `limit`-th item is requested, prefetched pages included. `limit` is required;
   * `Infinity` collects every item. A missing or bad `limit` rejects with a `ConfigurationError`.
   *
   * @example
   * ```ts
   * const first100 = await client.papers.search({ q: 'graphene' }).toArray({ limit: 100 });
   * ```
   */
  async toArray(options: { limit: number }): Promise<T[]> {
    const limit = (await loadWalk()).toArrayLimit(options, walkParts);
    const items: T[] = [];
    if (limit === 0) return items;
    for await (const page of this.#walk(limit)) {
      for (const item of page.data) {
        items.push(item);
        if (items.length === limit) return items;
      }
    }
    return items;
  }

  /**
   * Every page in order, the first included. Leaving the loop aborts the pages requested ahead.
   *
   * @example
   * ```ts
   * for await (const page of client.papers.search({ q: 'graphene' }).pages()) {
   *   console.log(`page ${page.page}: ${page.data.length} of ${page.total}`);
   * }
   * ```
   */
  pages(): AsyncGenerator<Page<T>, void, undefined> {
    return this.#walk(Number.POSITIVE_INFINITY);
  }

  /**
   * @internal Every page in order until the one that holds the `limit`-th item: no page past it is
   * requested, prefetched pages included (the command line's `--limit`, written page by page).
   */
  pagesUpTo(limit: number): AsyncGenerator<Page<T>, void, undefined> {
    return this.#walk(limit);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** The pages in order, requesting none whose items all lie past the first `limit` of the walk. */
  async *#walk(limit: number): AsyncGenerator<Page<T>, void, undefined> {
    const { walkPages, toArrayLimit } = await loadWalk();
    const from = {
      first: async () => (await this.#firstPage()).data,
      answer: this.#source.answer.bind(this.#source),
      options: this.#options,
      limited: () => this.#limited,
    };
    yield* walkPages(from, toArrayLimit({ limit }, walkParts), walkParts);
  }
}

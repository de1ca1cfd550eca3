import { describeValue } from './describe-value.js';
import { InvalidParameterError, MetricError } from './errors.js';
import type { RequestOptions } from './options.js';

/** The `{ data, total }` envelope of a paginated response. */
export interface PageBody<T> {
  readonly data: T[];
  readonly total: number;
}

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

/** Request options as the transport takes them inside a walk. */
export interface WalkRequestOptions extends RequestOptions {
  /** Told of every failed attempt that is about to be retried. */
  onRetry?: ((error: Error) => void) | undefined;
}

/** Fetches one page by number, the method's other parameters bound; supplied by the resource. */
export type PageFetcher<T> = (page: number, options: WalkRequestOptions) => Promise<PageBody<T>>;

/** The upper bound of `prefetch`: enough to hide latency, too few to look like a flood. */
export const maxPrefetch = 8;

/** Where a walk stands after a page: the facts every "is there more?" answer comes from. */
interface WalkState {
  /** Items per page as requested, or as the first page came back. */
  readonly pageSize: number;
  /** The smallest `total` any page reported: a server whose total keeps growing cannot stretch a walk. */
  readonly bound: number;
  /** Items up to and including this page, counting the pages before the first one fetched as full. */
  readonly seen: number;
  /** Enough of the page to recognise it if it comes again: its length, first and last items. */
  readonly fingerprint: string;
  /**
   * The same page as the one before: a server or proxy that ignores `page`. Its honest `total` would
   * otherwise keep a walk going around the same items for as long as the total is large.
   */
  readonly repeat: boolean;
}

const walkStates = new WeakMap<Page<unknown>, WalkState>();

/**
 * One page of results.
 *
 * @example
 * ```ts
 * let page = await client.papers.search({ q: 'graphene', per_page: 50 });
 * while (page.hasNextPage()) page = await page.getNextPage();
 * ```
 */
export class Page<T> {
  /** The items of this page. */
  readonly data: T[];
  /** Matching items across all pages, as the server reported it with this page. */
  readonly total: number;
  /** This page's number (1-based). */
  readonly page: number;
  readonly #fetcher: PageFetcher<T>;
  readonly #options: RequestOptions;

  /** @internal */
  constructor(body: PageBody<T>, page: number, fetcher: PageFetcher<T>, options: RequestOptions) {
    this.data = body.data;
    this.total = body.total;
    this.page = page;
    this.#fetcher = fetcher;
    this.#options = options;
  }

  /**
   * Whether another page is worth asking for: this one was not empty, not the previous page again,
   * and fewer than `total` items were seen.
   *
   * @example
   * ```ts
   * let page = await client.journals.papers(42, { per_page: 100 });
   * const papers = [...page.data];
   * while (page.hasNextPage()) {
   *   page = await page.getNextPage();
   *   papers.push(...page.data);
   * }
   * ```
   */
  hasNextPage(): boolean {
    const state = walkStates.get(this)!;
    return this.data.length > 0 && !state.repeat && state.seen < state.bound;
  }

  /** @internal Whether this page is the previous one served again (a walk ends there, without it). */
  isRepeat(): boolean {
    return walkStates.get(this)!.repeat;
  }

  /**
   * Fetches the page after this one; rejects with a `MetricError` when {@link Page.hasNextPage} is false.
   *
   * @example
   * ```ts
   * const first = await client.papers.search({ q: 'graphene', per_page: 50 });
   * // Without options the next page is fetched with those of the first; these replace them.
   * const second = first.hasNextPage() ? await first.getNextPage({ timeout: 5_000 }) : undefined;
   * ```
   */
  getNextPage(options: RequestOptions = this.#options): Promise<Page<T>> {
    if (!this.hasNextPage()) {
      return Promise.reject(new MetricError('There is no next page: check hasNextPage() first'));
    }
    return this.#fetcher(this.page + 1, options).then((body) => this.follow(body, options));
  }

  /** @internal The page after this one, from its body. */
  follow(body: PageBody<T>, options: RequestOptions): Page<T> {
    return makePage(body, this.page + 1, this.#fetcher, options, walkStates.get(this)!);
  }

  /** @internal Whether page `n`, some way after this one, may still hold items by this page's account. */
  mayHold(n: number): boolean {
    const state = walkStates.get(this)!;
    return this.hasNextPage() && state.seen + (n - this.page - 1) * state.pageSize < state.bound;
  }
}

function makePage<T>(
  body: PageBody<T>,
  page: number,
  fetcher: PageFetcher<T>,
  options: RequestOptions,
  previous: WalkState | undefined,
  requestedSize?: number,
): Page<T> {
  const { data } = body;
  const pageSize = previous?.pageSize ?? requestedSize ?? data.length;
  const fingerprint = `${data.length}:${JSON.stringify(data[0])}:${JSON.stringify(data[data.length - 1])}`;
  const result = new Page(body, page, fetcher, options);
  walkStates.set(result, {
    pageSize,
    bound: Math.min(previous?.bound ?? body.total, body.total),
    seen: (previous?.seen ?? (page - 1) * pageSize) + data.length,
    fingerprint,
    repeat: data.length > 0 && fingerprint === previous?.fingerprint,
  });
  return result;
}

function checkPrefetch(value: unknown): number {
  if (value === undefined) return 1;
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > maxPrefetch) {
    throw new InvalidParameterError(
      'prefetch',
      `prefetch must be an integer from 0 to ${maxPrefetch}, got ${describeValue(value)}`,
    );
  }
  return value as number;
}

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
  readonly #fetcher: PageFetcher<T>;
  readonly #startPage: number | undefined;
  readonly #pageSize: number | undefined;
  readonly #options: PageRequestOptions;
  #first: Promise<Page<T>> | undefined;

  /** @internal `startPage` and `pageSize` are as the caller gave them; the fetcher refuses bad ones. */
  constructor(
    fetcher: PageFetcher<T>,
    startPage: number | undefined,
    pageSize: number | undefined,
    options: PageRequestOptions | undefined,
  ) {
    this.#fetcher = fetcher;
    this.#startPage = startPage;
    this.#pageSize = pageSize;
    this.#options = options ?? {};
  }

  #firstPage(): Promise<Page<T>> {
    this.#first ??= (async () => {
      checkPrefetch(this.#options?.prefetch);
      const page = this.#startPage === undefined ? 1 : this.#startPage;
      const body = await this.#fetcher(page, this.#options);
      return makePage(body, page, this.#fetcher, this.#options, undefined, this.#pageSize);
    })();
    return this.#first;
  }

  // biome-ignore lint/suspicious/noThenProperty: a PagePromise is awaitable by design.
  then<R1 = Page<T>, R2 = never>(
    onFulfilled?: ((page: Page<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#firstPage().then(onFulfilled, onRejected);
  }

  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<Page<T> | R> {
    return this.#firstPage().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<Page<T>> {
    return this.#firstPage().finally(onFinally);
  }

  get [Symbol.toStringTag](): string {
    return 'PagePromise';
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
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    const stop = new AbortController();
    const user = this.#options.signal;
    let window = checkPrefetch(this.#options.prefetch);
    const options: WalkRequestOptions = {
      ...this.#options,
      signal: user ? AbortSignal.any([user, stop.signal]) : stop.signal,
      onRetry: (error) => {
        if ((error as { status?: unknown }).status === 429) window = Math.min(window, 1);
      },
    };
    // ahead[i] is the body of page (page.page + 1 + i), already requested.
    const ahead: Array<Promise<PageBody<T>>> = [];
    try {
      let page = await this.#firstPage();
      for (;;) {
        while (ahead.length < window && page.mayHold(page.page + 1 + ahead.length)) {
          const request = this.#fetcher(page.page + 1 + ahead.length, options);
          // Awaited later, in order; a rejection meanwhile must not count as unhandled.
          request.catch(() => {});
          ahead.push(request);
        }
        yield page;
        if (!page.hasNextPage()) return;
        page = page.follow(await (ahead.shift() ?? this.#fetcher(page.page + 1, options)), this.#options);
        if (page.isRepeat()) return;
      }
    } finally {
      stop.abort();
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }
}

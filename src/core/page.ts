import { MetricError } from './errors.js';
import type { RequestOptions } from './options/request.js';
import type { Answer, TransportOptions } from './transport.js';

/** The `{ data, total }` envelope of a paginated response. */
export interface PageBody<T> {
  readonly data: T[];
  readonly total: number;
}

/**
 * A page as plain data: what {@link Page.toJSON} returns and what `scholarly-metrics/query` keeps.
 * It survives `structuredClone`, `JSON.stringify` and structural sharing, which a class cannot.
 *
 * @example
 * ```ts
 * import type { PlainPage, PaperSummary } from 'scholarly-metrics';
 *
 * const page: PlainPage<PaperSummary> = (await client.papers.search({ q: 'graphene' })).toJSON();
 * if (page.nextPage !== undefined) console.log(`page ${page.nextPage} comes next`);
 * ```
 */
export interface PlainPage<T> {
  /** The items of this page. */
  readonly data: T[];
  /** Matching items across all pages, as the server reported it with this page. */
  readonly total: number;
  /** This page's number (1-based). */
  readonly page: number;
  /** The number of the page after this one, or `undefined` when this is the last. */
  readonly nextPage: number | undefined;
}

/** How a walk reaches the server: each page validated, or the first one's response left unread. */
export interface PageSource<T> {
  answer(page: number, options: TransportOptions): Promise<Answer<PageBody<T>>>;
  raw(page: number, options: TransportOptions): Promise<Response>;
}

/** Where a walk stands after a page: the facts every "is there more?" answer comes from. */
export interface WalkState {
  /** Items per page as requested, or as the first page came back. */
  readonly pageSize: number;
  /** The smallest `total` any page reported: a server whose total keeps growing cannot stretch a walk. */
  readonly bound: number;
  /** Items up to and including this page, counting the pages before the first one fetched as full. */
  readonly seen: number;
  /** The walk's first page, and the items `seen` counts for the pages before it. */
  readonly firstPage: number;
  readonly before: number;
  /**
   * Items on the walk's first page: the page size the server actually serves (it may cap `per_page`).
   */
  readonly firstSize: number;
  /** Fewer items than the walk's first page: the last page, whatever `total` says. */
  readonly short: boolean;
  /** Enough of the page to recognise it if it comes again: its length, first and last items. */
  readonly fingerprint: string;
  /**
   * The same page as the one before: a server or proxy that ignores `page`. Its honest `total` would
   * otherwise keep a walk going around the same items for as long as the total is large.
   */
  readonly repeat: boolean;
}

// A walk (walk.ts) reads a page's private state through these, set in Page's static block.
export let stateOf: <T>(page: Page<T>) => WalkState;
export let follow: <T>(page: Page<T>, body: PageBody<T>, options: RequestOptions) => Page<T>;

/**
 * One page of results. Pages are made by the client's paginated methods.
 *
 * @example
 * ```ts
 * let page = await client.papers.search({ q: 'graphene', per_page: 50 });
 * while (page.hasNextPage()) page = await page.getNextPage();
 * ```
 */
export class Page<T> {
  /** The items of this page. */
  declare readonly data: T[];
  /** Matching items across all pages, as the server reported it with this page. */
  declare readonly total: number;
  /** This page's number (1-based). */
  declare readonly page: number;
  readonly #source: PageSource<T>;
  readonly #options: RequestOptions;
  readonly #state: WalkState;

  static {
    stateOf = (page) => page.#state;
    follow = (page, body, options) => new Page(body, page.page + 1, page.#source, options, page.#state);
  }

  /**
   * @param previous the state after the page before, when this one follows it in a walk
   * @param requestedSize `per_page` as the caller asked, for the first page of a walk
   */
  constructor(
    body: PageBody<T>,
    page: number,
    source: PageSource<T>,
    options: RequestOptions,
    previous?: WalkState,
    requestedSize?: number,
  ) {
    const { data } = body;
    // Safe to stringify: a page body is refused past a nesting depth and a size (see parseResponse).
    const print = `${data.length}:${JSON.stringify(data[0])}:${JSON.stringify(data[data.length - 1])}`;
    const repeat = data.length > 0 && print === previous?.fingerprint;
    // A repeat is served empty, and last: whoever follows the pages by hand collects no item twice.
    this.data = repeat ? [] : data;
    this.total = body.total;
    this.page = page;
    this.#source = source;
    this.#options = options;
    // The pages before a walk's first count at the size asked for when, with this page, they make
    // `total` (this may be the last page, shorter than the rest); else at the size served, which a
    // server may cap or ignore.
    const pageSize =
      previous?.pageSize ??
      (requestedSize !== undefined && (page - 1) * requestedSize + data.length === body.total
        ? requestedSize
        : data.length);
    const firstSize = previous?.firstSize ?? data.length;
    const firstPage = previous?.firstPage ?? page;
    // A walk begun past page 1 counts the pages before it at the size asked for. A later page as short
    // as the first shows that the server serves fewer than `per_page` (the last page would have been
    // alone), so those pages are counted again at the size it serves: else the walk would end early.
    const servedBefore = (firstPage - 1) * firstSize;
    const servesLess = previous !== undefined && data.length === firstSize && previous.before > servedBefore;
    const before = servesLess ? servedBefore : (previous?.before ?? (page - 1) * pageSize);
    this.#state = {
      pageSize,
      firstSize,
      short: previous !== undefined && data.length < firstSize,
      bound: Math.min(previous?.bound ?? body.total, body.total),
      firstPage,
      before,
      seen: (previous === undefined ? before : previous.seen - previous.before + before) + data.length,
      fingerprint: print,
      repeat,
    };
  }

  /**
   * Whether another page is worth asking for: this one was not empty, not the previous page again,
   * not shorter than the walk's first page, fewer than `total` items were seen, and the next page
   * number is within what `total` and the page size allow.
   *
   * A page fetched alone by number counts the pages before it as full: at the `per_page` asked for
   * when they and this page make `total` (page 59 of 1,161 results at `per_page: 20` is the last),
   * else at this page's length, which the last page of all, shorter than the rest, cannot tell apart
   * from a full one. A walk that goes on counts again at the size served once a second page is as
   * short as its first.
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
    const state = this.#state;
    return (
      // A repeat comes empty (see the constructor): the length says it.
      this.data.length > 0 &&
      !state.short &&
      state.seen < state.bound &&
      this.page * state.firstSize < state.bound
    );
  }

  /**
   * This page as plain data (`{ data, total, page, nextPage }`), `nextPage` answered by
   * {@link Page.hasNextPage}: what `JSON.stringify` writes for a page.
   *
   * @example
   * ```ts
   * const page = await client.papers.search({ q: 'graphene', page: 3, per_page: 20 });
   * const { data, total, nextPage } = page.toJSON(); // nextPage: 4, or undefined on the last page
   * ```
   */
  toJSON(): PlainPage<T> {
    return {
      data: this.data,
      total: this.total,
      page: this.page,
      nextPage: this.hasNextPage() ? this.page + 1 : undefined,
    };
  }

  /**
   * Fetches the page after this one; rejects with a `MetricError` when {@link Page.hasNextPage} is false.
   * A page the server serves again for the next number (it ignores `page`) comes back empty, and last.
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
    return this.#source.answer(this.page + 1, options).then(({ data }) => follow(this, data, options));
  }

  /**
   * Every item of this page and of the pages after it, as openai-node's pages do: the next page is
   * requested once this one's items are all yielded, with this page's options.
   *
   * @example
   * ```ts
   * const page = await client.papers.search({ q: 'graphene', page: 2 });
   * for await (const paper of page) console.log(paper.title); // page 2, then 3, …
   * ```
   */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    let page: Page<T> = this;
    for (;;) {
      yield* page.data;
      if (!page.hasNextPage()) return;
      page = await page.getNextPage();
    }
  }
}

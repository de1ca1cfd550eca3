/**
 * The walk of a paginated call (`for await`, `.pages()`, `toArray`): pages in order, the next ones
 * requested ahead, none past the `limit`-th item or the last page. A module of its own, loaded with
 * the first walk: a page that only awaits first pages never downloads it.
 */
import type { describeValue } from './describe-value.js';
import type { ConfigurationError } from './errors.js';
import type { isRecord } from './is-record.js';
import type { checkPrefetch, RequestOptions } from './options/request.js';
import type { Page, PageBody, WalkState } from './page.js';
import type { Answer, TransportOptions } from './transport.js';

/** A walk's options: a call's, with how many pages it may request ahead (`PageRequestOptions`). */
type WalkOptions = RequestOptions & { readonly prefetch?: number | undefined };

/** What a walk needs of the call it walks (a PagePromise's private parts). */
export interface WalkFrom<T> {
  readonly first: () => Promise<Page<T>>;
  readonly answer: (page: number, options: TransportOptions) => Promise<Answer<PageBody<T>>>;
  readonly options: WalkOptions;
  /** Whether a request of the walk was rate-limited (429) and retried: then one page ahead at most. */
  readonly limited: () => boolean;
}

/**
 * What the walk takes from the first load, handed over by the loader (pagination.ts) rather than
 * imported: importing the first load's modules would make a splitting bundler cut them out of the
 * first load into chunks of their own.
 */
export interface WalkParts {
  readonly walkStopped: unknown;
  readonly checkPrefetch: typeof checkPrefetch;
  readonly stateOf: <T>(page: Page<T>) => WalkState;
  readonly follow: <T>(page: Page<T>, body: PageBody<T>, options: RequestOptions) => Page<T>;
  readonly ConfigurationError: typeof ConfigurationError;
  readonly describeValue: typeof describeValue;
  readonly isRecord: typeof isRecord;
}

/**
 * The `limit` of `toArray`: how many items to collect, or `Infinity` for all. A bad one is an invalid
 * option of the call, a `ConfigurationError`. Here with the walk, as `toArray` always walks.
 */
export function toArrayLimit(
  options: { limit?: unknown } | undefined,
  { ConfigurationError, describeValue, isRecord }: WalkParts,
): number {
  // The name is not quoted: a refusal here has no key cut out of it, and the name may be the key.
  if (isRecord(options) && Object.keys(options).some((name) => name !== 'limit'))
    throw new ConfigurationError('options', 'toArray takes one option, { limit }');
  const limit = options?.limit;
  if (limit === Number.POSITIVE_INFINITY || (Number.isInteger(limit) && (limit as number) >= 0)) {
    return limit as number;
  }
  // What was given in place of `{ limit }` is shown, as `toArray(5)` would be written for other
  // libraries. A string is not quoted: this refusal has no key to cut out of it, and it may be the key.
  const given = isRecord(options) ? limit : options;
  const got = typeof given === 'string' ? 'a string' : describeValue(given);
  throw new ConfigurationError('limit', `toArray needs { limit }: a count, or Infinity for all; got ${got}`);
}

/**
 * The items each page after the next is counted at when a walk looks ahead: the larger of the size
 * asked for and the size the server served first. A server that serves more than `per_page` would
 * otherwise be thought to need more pages than it does, and the walk would request pages past the end
 * of the results, or past the one that holds a `toArray` limit.
 */
export function sizeAhead(state: WalkState): number {
  return Math.max(state.pageSize, state.firstSize);
}

/** The pages in order, requesting none whose items all lie past the first `limit` of the walk. */
export async function* walkPages<T>(
  from: WalkFrom<T>,
  limit: number,
  { walkStopped, checkPrefetch, stateOf, follow }: WalkParts,
): AsyncGenerator<Page<T>, void, undefined> {
  let window = checkPrefetch(from.options.prefetch);
  // The first page is the call's own: it checks the call's options, its signal included, before the
  // walk listens to that signal.
  let page = await from.first();
  const stop = new AbortController();
  const user = from.options.signal;
  // The caller's signal stops the walk's through a listener: AbortSignal.any takes only the runtime's
  // own signals, where a call takes any signal that dispatches 'abort'.
  const forward = () => stop.abort(user?.reason);
  user?.addEventListener('abort', forward);
  if (user?.aborted) forward();
  const options: TransportOptions = { ...from.options, signal: stop.signal };
  // ahead[i] is the answer for page (page.page + 1 + i), already requested.
  const ahead: Array<Promise<Answer<PageBody<T>>>> = [];
  let yielded = 0;
  /** Whether page `n`, some way after `page`, may hold one of the first `limit` items, by `page`'s account. */
  const wanted = (page: Page<T>, n: number) => {
    const state = stateOf(page);
    const before = (n - page.page - 1) * sizeAhead(state);
    return (
      page.hasNextPage() && state.seen + before < state.bound && yielded + page.data.length + before < limit
    );
  };
  try {
    for (;;) {
      if (from.limited()) window = Math.min(window, 1);
      while (ahead.length < window && wanted(page, page.page + 1 + ahead.length)) {
        const request = from.answer(page.page + 1 + ahead.length, options);
        // Awaited later, in order; a rejection meanwhile must not count as unhandled.
        request.catch(() => {});
        ahead.push(request);
      }
      yield page;
      if (!page.hasNextPage() || !wanted(page, page.page + 1)) return;
      yielded += page.data.length;
      // Once the caller aborts, no page answered ahead is handed out. One still under way ends with the
      // abort; one answered before it is asked for again, which the aborted signal refuses as it refuses
      // a single call. Neither is asked for twice while it may still be sent.
      const early = ahead.shift();
      const again = () => from.answer(page.page + 1, options);
      const next = await (user?.aborted ? (early?.then(again) ?? again()) : (early ?? again()));
      page = follow(page, next.data, from.options);
      if (stateOf(page).repeat) return;
    }
  } finally {
    user?.removeEventListener('abort', forward);
    // The pages requested ahead end with a reason that says they were not wanted, rather than failed.
    stop.abort(walkStopped);
  }
}

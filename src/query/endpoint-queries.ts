import type { Endpoint } from '../core/endpoint.js';
import { isPlainRecord } from '../core/is-record.js';
import type { Page } from '../core/page.js';
import { nextPageParam } from './next-page.js';
import type { LaidDefaults } from './types.js';

/**
 * An argument with no value: `undefined`, or a plain object whose values are all `undefined`. A Map or
 * a URLSearchParams has no own values either, but stays in the key: the client refuses it, and its
 * refusal must not share the key of the call with no parameters, nor that call's cached answer.
 */
const isBlank = (value: unknown): boolean =>
  isPlainRecord(value) ? Object.values(value).every((each) => each === undefined) : value === undefined;

/** A client method, called with its arguments and the request options `{ signal }`. */
export type MethodCall = (args: unknown[], signal: AbortSignal) => PromiseLike<unknown>;

/** The queries of one endpoint: a function giving query options, or infinite ones and `.page()`. */
export function endpointQueries(
  endpoint: Endpoint,
  invoke: MethodCall,
  prefix: readonly unknown[],
  defaults: LaidDefaults,
): unknown {
  // How many arguments the method takes before its options: its path values, then its parameters.
  const count = Object.keys(endpoint.pathParams).length + (Object.keys(endpoint.query).length > 0 ? 1 : 0);
  const paramsAt = count - 1;
  /**
   * The arguments as the method takes them (as many as its slots, missing ones `undefined`), and the
   * key that holds them (trailing arguments with no value left out: `search()`, `search(undefined)`
   * and `search({})` are one query), then `suffix`.
   */
  const argumentsOf = (given: readonly unknown[], ...suffix: unknown[]) => {
    // Parameters copied: an object the caller changes later must not change the key, nor the request.
    const call = Array.from({ length: count }, (_, i) =>
      isPlainRecord(given[i]) ? { ...given[i] } : given[i],
    );
    let length = count;
    while (length > 0 && isBlank(call[length - 1])) length--;
    return [call, [...prefix, endpoint.name, ...call.slice(0, length), ...suffix]] as const;
  };
  /** An answer as the query keeps it: a page as its plain data (`toJSON()`), anything else as it is. */
  const plain = (answer: unknown) => (endpoint.paged ? (answer as Page<unknown>).toJSON() : answer);
  const query = (...given: unknown[]) => {
    const [call, queryKey] = argumentsOf(given);
    return {
      ...defaults,
      queryKey,
      queryFn: ({ signal }: { signal: AbortSignal }) => invoke(call, signal).then(plain),
    };
  };
  if (!endpoint.paged) return query;
  const infinite = (...given: unknown[]) => {
    const [call, queryKey] = argumentsOf(given, 'infinite');
    const params = call[paramsAt];
    // Only parameters the method can take get a page: anything else goes as given, for the client to refuse.
    // Parameters the client would refuse (a Map, URLSearchParams) go to it as given, never spread.
    const pageable = params === undefined || isPlainRecord(params);
    const firstPage = pageable ? (params as { page?: unknown } | undefined)?.page : undefined;
    const withPage = (page: unknown) =>
      pageable ? [...call.slice(0, paramsAt), { ...(params as object | undefined), page }] : call;
    return {
      ...defaults,
      queryKey,
      queryFn: ({ signal, pageParam }: { signal: AbortSignal; pageParam: number }) =>
        invoke(withPage(pageParam), signal).then(plain),
      // A `page` that is not a page number starts the walk as given, so the client refuses it by name.
      initialPageParam: firstPage === undefined ? 1 : firstPage,
      getNextPageParam: nextPageParam,
    };
  };
  return Object.assign(infinite, { page: query });
}

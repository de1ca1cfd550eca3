import type { describeValue } from '../core/describe-value.js';
import type { checkOptionNames, MethodShape } from '../core/endpoint.js';
import type {
  AuthenticationError,
  InvalidParameterError,
  MetricError,
  PermissionDeniedError,
  RateLimitError,
  RequestAbortedError,
} from '../core/errors.js';
import type { checkInteger, checkObject, OptionNames } from '../core/options/checks.js';
import type { checkRequestOptions, RequestOptions, requestOptionNames } from '../core/options/request.js';
import { runPool } from '../core/pool.js';
import type { Transport, TransportOptions } from '../core/transport.js';
import type { Paper } from '../schemas/papers.js';

/**
 * Options of {@link Papers.getMany}: how many lookups run at once, and the request options every
 * lookup is sent with (`signal` cancels the whole call).
 *
 * @example
 * ```ts
 * import type { GetManyOptions } from 'scholarly-metrics';
 *
 * const options: GetManyOptions = { concurrency: 8, timeout: 5_000, maxRetries: 1 };
 * const results = await client.papers.getMany(dois, options);
 * ```
 */
export interface GetManyOptions extends RequestOptions {
  /**
   * Lookups of this call in flight at once: an integer from 1 to 16. The client's own limits
   * (`maxConcurrency`, `maxRequestsPerMinute`) still apply on top, unless the call's `headers` send
   * a key of their own, which counts apart.
   * @default 4
   */
  concurrency?: number | undefined;
}

/**
 * One element of what {@link Papers.getMany} resolves to, at the position of its DOI: the paper, or
 * the `MetricError` that stopped this one lookup (`InvalidParameterError` for a string that is not a
 * DOI, `NotFoundError` for a 404, or whatever outlasted the retries: a 5xx, a connection error, a
 * body that failed validation). `doi` is the string as given. Check `error` (or `paper`) to narrow.
 *
 * @example
 * ```ts
 * import { NotFoundError, type PaperResult } from 'scholarly-metrics';
 *
 * const results: PaperResult[] = await client.papers.getMany(['10.1000/abc/def', '10.9999/none']);
 * for (const result of results) {
 *   if (result.error === undefined) console.log(result.doi, result.paper.title);
 *   else if (result.error instanceof NotFoundError) console.log(result.doi, 'not found');
 *   else console.log(result.doi, 'failed:', result.error.message);
 * }
 * ```
 */
export type PaperResult =
  | { readonly doi: string; readonly paper: Paper; readonly error?: undefined }
  | { readonly doi: string; readonly paper?: undefined; readonly error: MetricError };

type Outcome = { readonly paper: Paper } | { readonly error: MetricError };

/**
 * What getMany uses of the client's first load, handed over by `papers.getMany` rather than imported:
 * this module is loaded on demand, and importing a few of the first load's modules would make a
 * splitting bundler cut them out of the first load into chunks of their own.
 */
export interface FirstLoadParts {
  readonly describeValue: typeof describeValue;
  readonly checkOptionNames: typeof checkOptionNames;
  readonly checkInteger: typeof checkInteger;
  readonly checkObject: typeof checkObject;
  readonly checkRequestOptions: typeof checkRequestOptions;
  readonly requestOptionNames: typeof requestOptionNames;
  readonly MetricError: typeof MetricError;
  readonly InvalidParameterError: typeof InvalidParameterError;
  readonly AuthenticationError: typeof AuthenticationError;
  readonly PermissionDeniedError: typeof PermissionDeniedError;
  readonly RateLimitError: typeof RateLimitError;
  readonly RequestAbortedError: typeof RequestAbortedError;
}

const getManyMethod: MethodShape = { name: 'papers.getMany', pathParams: {}, query: {} };

const defaultConcurrency = 4;
export const maxConcurrency = 16;
/**
 * The most DOIs one call takes: every answer is held until the call ends, and an iterable that never
 * ends must be refused rather than read for ever.
 */
const maxDois = 100_000;

/**
 * The work of `papers.getMany`, with the single lookup handed in so that each one goes through the
 * client's usual request path (its retries, hooks and quota).
 */
export async function getMany(
  dois: Iterable<string>,
  options: GetManyOptions | undefined,
  lookup: (doi: string, options: TransportOptions) => PromiseLike<Paper>,
  parts: FirstLoadParts,
  transport: Pick<Transport, 'aborted'>,
): Promise<PaperResult[]> {
  const given = collect(dois, parts);
  const { concurrency, request } = checkOptions(options, parts);
  const { signal } = request;
  const isPerItem = (error: unknown) => isPerItemOf(error, parts);
  if (signal?.aborted) {
    throw await transport.aborted('papers.getMany was aborted before it started', signal.reason);
  }
  if (given.length === 0) return [];

  // DOI names are case-insensitive for ASCII letters only (DOI Handbook §2.4): `10.1000/ABC` and
  // `10.1000/abc` are one paper, but names differing in the case of other letters may not be.
  const slotOf = new Map<string, number>();
  const unique: string[] = [];
  const slots = given.map((doi) => {
    const key = doi.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
    let slot = slotOf.get(key);
    if (slot === undefined) {
      slot = unique.push(doi) - 1;
      slotOf.set(key, slot);
    }
    return slot;
  });

  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const outcomes: Outcome[] = [];
  try {
    await runPool(unique, concurrency, controller, async (doi, slot) => {
      try {
        // A 404 here is a result, not a failure of the call: it is logged at info, not error.
        const options = { ...request, signal: controller.signal, isResult: isPerItem };
        outcomes[slot] = { paper: await lookup(doi, options) };
      } catch (error) {
        if (!isPerItem(error)) throw error;
        outcomes[slot] = { error };
      }
    });
  } catch (error) {
    // The caller's abort, when it is what stopped the lookups (not a failure before it), with the
    // reason cleaned of the key.
    if (signal?.aborted && error === signal.reason) {
      throw await transport.aborted('papers.getMany was aborted', signal.reason);
    }
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return given.map((doi, i) => ({ doi, ...outcomes[slots[i]!]! }));
}

/** What a getMany call's span tells of its result: how many DOIs were given, and how many failed. */
export function summarize(results: PaperResult[]): Record<string, number> {
  const failed = results.filter((result) => result.error !== undefined).length;
  return { 'scholarly_metrics.items': results.length, 'scholarly_metrics.items.failed': failed };
}

/**
 * Whether a failed lookup speaks for its own DOI only. A 401, 403 or 429, or a shared quota that
 * cannot tell (Redis down), would answer every other lookup the same way, and an abort is the
 * caller's; an error that is not a `MetricError` is a bug, not a result. Each of those rejects the
 * whole call.
 */
function isPerItemOf(error: unknown, parts: FirstLoadParts): error is MetricError {
  const { MetricError, InvalidParameterError, AuthenticationError, PermissionDeniedError } = parts;
  const { RateLimitError, RequestAbortedError } = parts;
  if (!(error instanceof MetricError)) return false;
  if (error instanceof InvalidParameterError) return error.parameter === 'doi';
  return !(
    error instanceof AuthenticationError ||
    error instanceof PermissionDeniedError ||
    // By its name: the class is the shared quota's, which a client without one never loads.
    error.name === 'QuotaUnavailableError' ||
    error instanceof RateLimitError ||
    error instanceof RequestAbortedError
  );
}

function collect(dois: Iterable<string>, { InvalidParameterError, describeValue }: FirstLoadParts): string[] {
  // A string is iterable too, letter by letter: one DOI passed alone must not become many lookups.
  if (typeof dois === 'string') {
    throw new InvalidParameterError('dois', 'dois must be an array of DOI strings, got a string: pass [doi]');
  }
  if (typeof (dois as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] !== 'function') {
    throw new InvalidParameterError(
      'dois',
      `dois must be an array (or another iterable) of DOI strings, got ${describeValue(dois)}`,
    );
  }
  const list: string[] = [];
  for (const doi of dois) {
    if (list.length === maxDois) {
      throw new InvalidParameterError(
        'dois',
        `dois holds more than ${maxDois} DOIs: getMany holds every answer until it ends; pass them in parts`,
      );
    }
    if (typeof doi !== 'string') {
      throw new InvalidParameterError(
        'dois',
        `dois must hold strings only, got ${describeValue(doi)} at index ${list.length}`,
      );
    }
    list.push(doi);
  }
  return list;
}

function checkOptions(options: GetManyOptions | undefined, parts: FirstLoadParts) {
  if (options === undefined) return { concurrency: defaultConcurrency, request: {} as RequestOptions };
  const { checkObject, checkOptionNames, checkInteger, checkRequestOptions } = parts;
  checkObject('options', options);
  // What `papers.getMany` takes besides the DOIs: no parameters, its options.
  const names: OptionNames<GetManyOptions> = { ...parts.requestOptionNames, concurrency: true };
  checkOptionNames(getManyMethod, options, names);
  const { concurrency, ...request } = options;
  return {
    concurrency: checkInteger('concurrency', concurrency, 1, maxConcurrency) ?? defaultConcurrency,
    request: checkRequestOptions(request),
  };
}

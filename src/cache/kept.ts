import type { CacheStatus } from '../core/api-promise.js';
import type { CachedAnswer } from '../core/cache-types.js';
import type { Route } from '../core/endpoint.js';
import type { Logger } from '../core/logger.js';
import type { Secret } from '../core/redact.js';
import type { Answer, TransportOptions } from '../core/transport.js';
import type { ResponseShape } from '../core/validate.js';
import { decodeEntry, type EntryMeta, encodeEntry, rebuildResponse } from './entry.js';
import { misplaced, overgrown, overlong, oversized } from './entry-checks.js';
import type { Watched } from './events.js';
import { recordListed } from './events.js';
import type { EventsInFlight } from './events-in-flight.js';
import type { FirstLoadParts } from './first-load-parts.js';
import type { EventSubject } from './keys.js';
import type { Store } from './store.js';

/**
 * A failure as a log line tells it: its message, or the value itself as text, since a store may
 * reject with anything (Keyv with `throwOnErrors` passes on its adapter's `undefined`). Never throws:
 * the failure it tells costs the call nothing.
 */
export function messageOf(error: unknown): string {
  try {
    return String((error as Error | undefined)?.message ?? error);
  } catch {
    return typeof error;
  }
}

/** A store operation whose failure costs the call its cache, never the call itself (warned of). */
export const quietlyFor =
  (logger: Logger | undefined) =>
  async <R>(run: () => Promise<R>): Promise<R | undefined> => {
    try {
      return await run();
    } catch (error) {
      logger?.warn('the cache store failed; going to the API', { error: messageOf(error) });
      return undefined;
    }
  };

/** What reading and keeping answers takes: the store, where to warn, how to fail. */
export interface KeptContext {
  readonly store: Store;
  readonly logger: Logger | undefined;
  /** Runs a store operation whose failure costs the call its cache, never the call itself. */
  readonly quietly: <R>(run: () => Promise<R>) => Promise<R | undefined>;
  /** How long past its expiry an answer is kept, to be served when the API fails. */
  readonly staleIfError: number;
  /** How long a request may take and still be kept; its flight records it, and markers outlive it (see events.ts). */
  readonly markerLifetime: number;
  /** What the cache uses of the client's first load. */
  readonly parts: FirstLoadParts;
}

/** What a request is for: where its answer is kept, and the bound its body is read within. */
export interface Target {
  /** The key of the client that calls (the cache may serve clients of several): kept out of the store. */
  readonly secret: Secret;
  readonly scope: string;
  readonly key: string;
  readonly marker: string | undefined;
  readonly partition: string;
  readonly route: Route;
  readonly path: string;
  readonly subject: EventSubject | undefined;
  readonly ttl: number;
  readonly maxResponseBytes: number;
}

/** How a request learns of events in other processes: its marker as read before it was sent. */
type Watch = Watched | undefined;

/** What a request's flight saw: its marker as read before sending, when it started, the events here. */
export interface FlightWatch {
  readonly watch: Watch | false;
  readonly started: number;
  readonly events: EventsInFlight | undefined;
  /** Whether the cache was cleared since the request was sent: its answer may predate the clear. */
  readonly cleared: () => boolean;
}

/** Which answer to read: its route and key, whose it must be, and the bounds it must fit. */
export interface KeptQuery {
  /** The key of the client that calls: cut from what a kept answer that fails its checks says. */
  readonly secret: Secret;
  readonly route: Route;
  readonly key: string;
  readonly partition: string;
  readonly ttl: number;
  readonly maxResponseBytes: number;
}

/** An answer read back from the store, checked. */
export interface Kept<T> {
  readonly meta: EntryMeta;
  readonly data: T;
}

/**
 * `reading`, or `undefined` as soon as `signal` aborts: a store slow to answer (a Redis client
 * queueing commands for a lost server) holds no aborted call, which is refused as the transport
 * refuses it, whatever the store holds.
 */
export function unlessAborted<T>(
  signal: AbortSignal | undefined,
  reading: Promise<T>,
): Promise<T | undefined> {
  if (signal === undefined) return reading;
  return new Promise((resolve, reject) => {
    const leave = () => resolve(undefined);
    signal.addEventListener('abort', leave, { once: true });
    reading.finally(() => signal.removeEventListener('abort', leave)).then(resolve, reject);
  });
}

/**
 * The entry kept under `query.key` for its partition, checked as an answer from the API is, and for
 * its size, lifetime and identity; a bad one is deleted. Another partition's entry is a miss, left alone.
 */
export async function readKept<T>(
  context: KeptContext,
  query: KeptQuery,
  shape: ResponseShape<T>,
): Promise<Kept<T> | undefined> {
  const { store, quietly } = context;
  const { MetricError, parseResponse, VERSION } = context.parts;
  const value = await quietly(() => store.get(query.key));
  if (value === undefined || value === null) return undefined;
  const huge = overgrown(value, query.maxResponseBytes);
  const entry = huge === undefined ? decodeEntry(value, VERSION) : undefined;
  if (entry !== undefined && entry.meta.p !== query.partition) return undefined;
  try {
    if (huge !== undefined) throw new MetricError(huge);
    if (entry === undefined) throw new MetricError('not an entry of this version of the SDK');
    const unfit =
      oversized(entry.body, query.maxResponseBytes) ?? overlong(entry.meta, query.ttl, Date.now());
    if (unfit !== undefined) throw new MetricError(unfit);
    const data = await parseResponse(shape, entry.body, query.secret);
    const elsewhere = misplaced(query.route, data);
    if (elsewhere !== undefined) throw new MetricError(elsewhere);
    return { meta: entry.meta, data };
  } catch (error) {
    context.logger?.warn('dropped a kept answer that failed its checks; sending the request', {
      error: messageOf(error),
    });
    await quietly(() => store.delete(query.key));
    return undefined;
  }
}

/** What a kept answer may be served as now: a hit within its lifetime, stale within `staleIfError` after it. */
export function servedAs(kept: Kept<unknown> | undefined, staleIfError: number): 'hit' | 'stale' | undefined {
  if (kept === undefined) return undefined;
  if (Date.now() < kept.meta.e) return 'hit';
  return Date.now() < kept.meta.e + staleIfError ? 'stale' : undefined;
}

/** A kept answer as a call resolves to it; its response is rebuilt only when asked for. */
export function answerOf<T>(kept: Kept<T>, cacheStatus: CacheStatus): CachedAnswer<T> {
  let response: Response | undefined;
  return {
    data: kept.data,
    cacheStatus,
    // Built when asked for: a plain `await` never needs it.
    get response() {
      response ??= rebuildResponse(kept.meta, Date.now());
      return response;
    },
  };
}

/** An answer the cache did not take part in. */
export function off<T>(answer: Answer<T>): CachedAnswer<T> {
  return { data: answer.data, response: answer.response, cacheStatus: 'off' };
}

/** Whether an error lets an expired answer be served: the API failed, rather than refused the call. */
export function servesStale(
  error: unknown,
  { APIError, ConnectionError }: Pick<FirstLoadParts, 'APIError' | 'ConnectionError'>,
): boolean {
  if (error instanceof ConnectionError) return true;
  return error instanceof APIError && ((error.status >= 500 && error.status < 600) || error.status === 429);
}

/**
 * A call's options once a kept answer may cover its failure: such a failure is not the call's, so the
 * transport logs it at info rather than as an error.
 */
export function coveredByKept(
  options: TransportOptions | undefined,
  parts: Pick<FirstLoadParts, 'APIError' | 'ConnectionError'>,
): TransportOptions {
  return { ...options, isResult: (error) => servesStale(error, parts) || !!options?.isResult?.(error) };
}

/**
 * Keeps `answer` for `target` unless the store failed while watching it, the cache was cleared or an
 * event here contradicts it, or (in a shared store) its request outlived a marker or another
 * process's event moved it. Resolves to whether such an event moved the marker while the request was
 * in flight: the answer may predate it, so calls that joined the request ask again.
 */
export async function keepAnswer(
  context: KeptContext,
  target: Target,
  { watch, started, events, cleared }: FlightWatch,
  answer: Answer<unknown>,
): Promise<boolean> {
  const { store, quietly, staleIfError, markerLifetime, parts } = context;
  const { key, partition, ttl } = target;
  if (watch === false) return false;
  if (watch !== undefined && target.subject === 'list') {
    const lifetime = ttl + staleIfError;
    const listed = await quietly(() => recordListed(store, target.scope, answer.data, lifetime));
    if (listed !== true) return false;
  }
  const now = Date.now();
  // Cleared, contradicted by an event here, or slower than its client's lifetime: its flight recorded
  // that much, and a marker written meanwhile lives at least as long.
  const allowed = () => !cleared() && (events?.allowsKeeping(answer.data) ?? true);
  if (!allowed() || (watch !== undefined && now - started > markerLifetime)) return false;
  const body = JSON.stringify(answer.data);
  const value = encodeEntry(answer.response, body, partition, now, now + ttl, parts.VERSION);
  // A server that echoes the key, in any encoding the redaction knows, must not make the store hold it.
  if (parts.mentionsSecret(value, target.secret)) return false;
  const moved = async () => watch !== undefined && (await store.get(watch.marker)) !== watch.before;
  const verdict = await quietly(async () => {
    // Before writing: an answer known to predate an event never takes the place of a fresher one.
    if (await moved()) return 'moved';
    await store.set(key, value, ttl + staleIfError);
    // After: an event may have come in between. Unless shown otherwise (a store that fails or times
    // out here shows nothing), the answer does not stay.
    let checked: 'kept' | 'moved' | 'dropped' | undefined;
    try {
      checked = !allowed() ? 'dropped' : (await moved()) ? 'moved' : 'kept';
    } finally {
      if (checked !== 'kept') await store.delete(key);
    }
    return checked;
  });
  return verdict === 'moved';
}

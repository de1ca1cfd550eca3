import type { CacheStatus } from '../core/api-promise.js';
import type { CachedAnswer, ScoreEvent } from '../core/cache-types.js';
import { APIError, ConnectionError, MetricError, WebhookPayloadError } from '../core/errors.js';
import { createLogger, type Logger } from '../core/logger.js';
import type { CacheMethod, ResolvedCacheOptions } from '../core/options/cache.js';
import type { ResolvedClientOptions } from '../core/options/client-types.js';
import { checkCacheMode, checkRequestOptions } from '../core/options/request.js';
import { queryString } from '../core/path.js';
import type { Answer, Route, TransportOptions } from '../core/transport.js';
import { parseResponse, type ResponseShape } from '../core/validate.js';
import { decodeEntry, type EntryMeta, encodeEntry, rebuildResponse } from './entry.js';
import { Flight } from './flight.js';
import { answerKey, markerKey, partitionOf, pathsOfJournal } from './keys.js';
import { keyvStore } from './keyv-store.js';
import { lifetimesOf } from './lifetimes.js';
import { memoryStore } from './memory-store.js';
import type { Store } from './store.js';

/** Sends the request itself (through the transport) with these options. */
export type Send<T> = (options: TransportOptions | undefined) => Promise<Answer<T>>;

/** How long the marker of a `score_updated` event outlives it: longer than any request can take. */
const markerLifetime = 86_400_000;

/**
 * The cache of one client (and of the clients `withOptions` makes from it): loaded only by a client
 * given the `cache` option. It answers from the store when it can, sends one request for identical
 * calls in flight, keeps what comes back, and serves an expired answer when the API fails, if allowed.
 *
 * Freshness after a `score_updated` event holds across processes that share a store: `apply` writes
 * the journal's event marker, then deletes the answers the event makes wrong. A request reads the
 * marker before it is sent and again once its answer is kept; if the marker moved meanwhile, the
 * answer (possibly from before the event) is deleted again. Whatever the order of the two processes'
 * steps, no answer from before the event stays behind.
 */
export class ResponseCache {
  readonly #store: Store;
  readonly #lifetimes: Readonly<Record<CacheMethod, number>>;
  readonly #staleIfError: number;
  readonly #logger: Logger | undefined;
  readonly #secret: string | null;
  readonly #partition: Promise<string>;
  readonly #flights = new Map<string, Flight<Answer<unknown>>>();

  constructor(options: ResolvedCacheOptions, client: ResolvedClientOptions) {
    this.#store = options.store === undefined ? memoryStore() : keyvStore(options.store);
    this.#lifetimes = lifetimesOf(options);
    this.#staleIfError = options.staleIfError;
    this.#logger = createLogger(client.logLevel, client.logger);
    this.#secret = client.apiKey;
    this.#partition = partitionOf(client.baseUrl, client.apiKey);
    // A runtime without WebCrypto makes every call go to the API; each says so in its warning.
    this.#partition.catch(() => {});
  }

  async answer<T>(
    method: CacheMethod,
    route: () => Route,
    shape: ResponseShape<T>,
    options: TransportOptions | undefined,
    send: Send<T>,
  ): Promise<CachedAnswer<T>> {
    // Checked here rather than with the other request options: a client without a cache ignores it.
    const mode = checkCacheMode(options?.cache);
    let path: string;
    let partition: string;
    try {
      checkRequestOptions(options);
      const { path: base, query } = route();
      path = base + (query ? queryString(query) : '');
      partition = await this.#partition;
    } catch {
      // A refused parameter or option is the transport's to report (it keeps the key out of the message).
      return off(await send(options));
    }
    const ttl = this.#lifetimes[method];
    // An aborted call is refused as the transport refuses it, even when its answer is kept.
    if (
      options?.signal?.aborted ||
      mode === false ||
      ttl === 0 ||
      (this.#secret !== null && path.includes(this.#secret))
    ) {
      return off(await send(options));
    }
    const key = answerKey(partition, path);
    let fallback: CachedAnswer<T> | undefined;
    if (mode !== 'refresh') {
      const kept = await this.#read(key, shape);
      const now = Date.now();
      if (kept !== undefined && now < kept.meta.e) return this.#answerOf(kept, 'hit');
      if (kept !== undefined && now < kept.meta.e + this.#staleIfError)
        fallback = this.#answerOf(kept, 'stale');
    }
    try {
      const answer = await this.#send(
        key,
        markerKey(partition, path),
        path,
        ttl,
        mode === 'refresh',
        options,
        send,
      );
      return { data: answer.data as T, response: answer.response, cacheStatus: 'miss' };
    } catch (error) {
      if (fallback === undefined || options?.signal?.aborted || !servesStale(error)) throw error;
      this.#logger?.warn(`GET ${path} failed; serving the kept answer, expired but within staleIfError`, {
        error: (error as Error).message,
      });
      return fallback;
    }
  }

  /**
   * Drops what a `score_updated` event makes wrong: the journal's profile and score history and the
   * journal list, in the store (so every process sharing it sees the event) and in flight here.
   */
  async apply(event: ScoreEvent): Promise<void> {
    // Checked by what is read (the receiver has parsed the whole event): this chunk stays free of
    // the webhook parser, which would otherwise be split out of the client's first load.
    const id = (event as { journal_id?: unknown } | null)?.journal_id;
    if (event?.event !== 'score_updated' || !Number.isSafeInteger(id) || (id as number) < 1) {
      throw new WebhookPayloadError(
        'cache.apply takes a score_updated event with a positive integer journal_id',
      );
    }
    const partition = await this.#partition;
    const paths = pathsOfJournal(id as number);
    for (const path of paths) this.#flights.delete(answerKey(partition, path));
    const token = `${Date.now()}.${Math.random()}`;
    try {
      for (const path of ['/journals', `/journals/${id}`]) {
        await this.#store.set(markerKey(partition, path)!, token, markerLifetime);
      }
      await Promise.all(paths.map((path) => this.#store.delete(answerKey(partition, path))));
    } catch (error) {
      throw new MetricError(`the cache could not drop journal ${id}'s answers: its store failed`, {
        cause: error,
      });
    }
  }

  /** Empties the store (all of it: a Keyv namespace of the SDK's own is best) and forgets requests in flight. */
  async clear(): Promise<void> {
    this.#flights.clear();
    try {
      await this.#store.clear();
    } catch (error) {
      throw new MetricError('the cache could not be cleared: its store failed', { cause: error });
    }
  }

  /** The request for `key`: the one in flight, or a new one whose answer is kept. */
  #send<T>(
    key: string,
    marker: string | undefined,
    path: string,
    ttl: number,
    refresh: boolean,
    options: TransportOptions | undefined,
    send: Send<T>,
  ): Promise<Answer<unknown>> {
    let flight = this.#flights.get(key);
    const joined = !(flight === undefined || flight.abandoned || refresh);
    if (!joined) {
      let created: Flight<Answer<unknown>> | undefined;
      created = new Flight(async (signal) => {
        try {
          const before =
            marker === undefined ? undefined : await this.#quietly(() => this.#store.get(marker));
          const answer = await send({ ...options, signal, cache: undefined });
          await this.#keep(key, marker, before, ttl, answer);
          return answer;
        } finally {
          if (this.#flights.get(key) === created) this.#flights.delete(key);
        }
      });
      flight = created;
      this.#flights.set(key, flight);
      // Its callers handle the outcome; a flight every caller left must not count as unhandled.
      flight.promise.catch(() => {});
    }
    const answer = flight!.join(options?.signal, path);
    // The data of one request is handed to several callers: each but the first gets a copy of its
    // own, so that one changing it cannot change what another sees.
    return joined ? answer.then((shared) => ({ ...shared, data: structuredClone(shared.data) })) : answer;
  }

  async #keep(
    key: string,
    marker: string | undefined,
    before: unknown,
    ttl: number,
    answer: Answer<unknown>,
  ) {
    const now = Date.now();
    const value = encodeEntry(answer.response, JSON.stringify(answer.data), now, now + ttl);
    // A server that echoes the key must not make the store hold it.
    if (this.#secret !== null && value.includes(this.#secret)) return;
    await this.#quietly(async () => {
      await this.#store.set(key, value, ttl + this.#staleIfError);
      if (marker !== undefined && (await this.#store.get(marker)) !== before) await this.#store.delete(key);
    });
  }

  /** The entry kept under `key`, checked as an answer from the API is; a bad one is deleted. */
  async #read<T>(key: string, shape: ResponseShape<T>): Promise<{ meta: EntryMeta; data: T } | undefined> {
    const value = await this.#quietly(() => this.#store.get(key));
    if (value === undefined || value === null) return undefined;
    const entry = decodeEntry(value);
    try {
      if (entry === undefined) throw new MetricError('not an entry of this version of the SDK');
      return { meta: entry.meta, data: await parseResponse(shape, entry.body, this.#secret) };
    } catch (error) {
      this.#logger?.warn('dropped a kept answer that failed its checks; sending the request', {
        error: (error as Error).message,
      });
      await this.#quietly(() => this.#store.delete(key));
      return undefined;
    }
  }

  #answerOf<T>(kept: { meta: EntryMeta; data: T }, cacheStatus: CacheStatus): CachedAnswer<T> {
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

  /** A store operation whose failure costs the call its cache, never the call itself. */
  async #quietly<R>(run: () => Promise<R>): Promise<R | undefined> {
    try {
      return await run();
    } catch (error) {
      this.#logger?.warn('the cache store failed; going to the API', { error: (error as Error).message });
      return undefined;
    }
  }
}

function off<T>(answer: Answer<T>): CachedAnswer<T> {
  return { data: answer.data, response: answer.response, cacheStatus: 'off' };
}

/** Whether an error lets an expired answer be served: the API failed, rather than refused the call. */
function servesStale(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  return error instanceof APIError && (error.status >= 500 || error.status === 429);
}

import type { CacheStatus } from './api-promise.js';
import type { Route } from './endpoint.js';
import type { ResolvedClientOptions } from './options/client-types.js';
import type { ScoreUpdatedEvent } from './score-updated-event.js';
import type { Answer, TransportOptions } from './transport.js';
import type { ResponseShape } from './validate.js';

/*
 * The cache as core uses it: core defines it here, and src/cache implements it, so that core never
 * imports the cache.
 */

/** An answer with where it came from. */
export type CachedAnswer<T> = Answer<T> & { readonly cacheStatus: CacheStatus };

/**
 * The `score_updated` event `apply` takes, by its earlier name: as in 0.4, only its kind and journal
 * are required.
 *
 * @deprecated use {@link ScoreUpdatedEvent}, the one name of the `score_updated` event.
 *
 * @example
 * ```ts
 * import type { ScoreUpdatedEvent } from 'scholarly-metrics'; // in place of ScoreEvent
 * ```
 */
export type ScoreEvent = Pick<ScoreUpdatedEvent, 'event' | 'journal_id'> & Partial<ScoreUpdatedEvent>;

/**
 * `client.cache`: what a client given the `cache` option offers besides its methods. Hand it to a
 * webhook receiver (`createWebhookHandler(onEvent, { cache: client.cache })`) to keep scores fresh.
 *
 * @example
 * ```ts
 * const client = new MetricClient({ apiKey, baseUrl, cache: true });
 * const { event } = await api.updateScore(7, 81); // the mock's score change
 * await client.cache?.apply(event); // journal 7's profile and score history, and the list, are dropped
 * await client.cache?.clear();      // everything is dropped
 * ```
 */
export interface MetricCache {
  /**
   * Drops what a `score_updated` event makes wrong: that journal's profile and score history, and
   * the journal list, each unless it already shows the new score; nothing else. With a shared store,
   * every process sees it on its next call. A forged event costs at most three requests.
   * Rejects with `WebhookPayloadError` for anything but a `score_updated` event naming a journal
   * (the receiver that parsed it checked the rest), and with a `MetricError` when the store fails.
   * Only the event's kind and journal are required: what else it carries keeps what already shows
   * the new score.
   */
  apply(event: Pick<ScoreUpdatedEvent, 'event' | 'journal_id'> & Partial<ScoreUpdatedEvent>): Promise<void>;
  /** Drops every kept answer (the whole store: give a Keyv store a namespace of the SDK's own). */
  clear(): Promise<void>;
}

/** The cache as the client holds it: {@link MetricCache}, and the way the client's calls go through it. */
export interface ClientCache extends MetricCache {
  /** One call, answered through the cache by its route's endpoint; `send` goes to the API. */
  answer<T>(
    route: () => Route,
    shape: ResponseShape<T>,
    options: TransportOptions | undefined,
    send: (options: TransportOptions | undefined) => Promise<Answer<T>>,
  ): Promise<CachedAnswer<T>>;
  /** The same cache for a client `withOptions` derived: its calls are partitioned by its own credentials. */
  forClient(client: ResolvedClientOptions): ClientCache;
}

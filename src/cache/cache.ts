import type { CachedAnswer } from '../core/cache-types.js';
import type { Route } from '../core/endpoint.js';
import type { Logger } from '../core/logger.js';
import type { ResolvedClientOptions } from '../core/options/client-types.js';
import type { ScoreUpdatedEvent } from '../core/score-updated-event.js';
import type { Answer, TransportOptions } from '../core/transport.js';
import type { ResponseShape } from '../core/validate.js';
import type { Watched } from './events.js';
import { dropContradicted, journalIds, markerLifetimeOf, markJournal, watchForEvents } from './events.js';
import { EventsInFlight } from './events-in-flight.js';
import type { FirstLoadParts } from './first-load-parts.js';
import { Flight, type Flying } from './flight.js';
import {
  answerOf,
  coveredByKept,
  type KeptContext,
  keepAnswer,
  messageOf,
  off,
  quietlyFor,
  readKept,
  servedAs,
  servesStale,
  type Target,
  unlessAborted,
} from './kept.js';
import { answerKey, eventRoutesOf, eventSubjectOf, markerKey, partitions, scopeOf } from './keys.js';
import { keyvStore } from './keyv-store.js';
import { memoryStore } from './memory-store.js';
import type { ResolvedCacheOptions } from './options.js';
import type { Store } from './store.js';

/** A shared answer as one more caller gets it: data of its own. */
const copyOf = (shared: Answer<unknown>) => ({ ...shared, data: structuredClone(shared.data) });

/** Sends the request itself (through the transport) with these options. */
export type Send<T> = (options: TransportOptions | undefined) => Promise<Answer<T>>;

/**
 * The cache of one client (and of the clients `withOptions` makes from it): loaded only by a client
 * given the `cache` option. It answers from the store when it can, sends one request for identical
 * calls of one partition in flight, keeps what comes back, and serves an expired answer when the API
 * fails, if allowed.
 *
 * Freshness after a `score_updated` event: `apply` hands the event to the requests of the journal in
 * flight here (each judges it against its answer once it lands) and, with a shared store, writes the
 * markers of what another process has in flight; then it deletes the kept answers the event makes
 * wrong. A request in a shared store says it is in flight, reads its marker before it is sent and
 * again once its answer is kept; if the marker moved meanwhile (or an event here contradicts the
 * answer), the answer, possibly from before the event, is deleted again. A request slower than its
 * client's marker lifetime is not kept; its flight records that lifetime, and a marker lives the
 * longest lifetime recorded by the requests it concerns, whichever process applies the event.
 */
export class ResponseCache {
  readonly #store: Store;
  readonly #shared: boolean;
  readonly #lifetimes: Readonly<Record<string, number | undefined>>;
  readonly #staleIfError: number;
  readonly #markerLifetime: number;
  readonly #logger: Logger | undefined;
  /** What reading a kept answer takes (see kept.ts). */
  readonly #kept: KeptContext;
  readonly #scope: Promise<string>;
  readonly #partitionOf = partitions();
  /** The requests a call may join, by partition, bound and path. */
  readonly #flights = new Map<string, Flying>();
  /**
   * Every request in flight, joinable or not: one an event or a refresh took out of `#flights` still
   * keeps its answer when it lands, so each later event must reach it too.
   */
  readonly #running = new Set<Flying>();
  /** The journals on the last list answer this process saw. */
  #listedHere: ReadonlySet<number> | undefined;
  /** How many times `clear()` was called: a request sent before a clear keeps nothing. */
  #clears = 0;
  /** What the cache uses of the client's first load, from its loader (client-cache.ts). */
  readonly #parts: FirstLoadParts;

  /** `logger`: the client's, made by the loader (undefined when logging is off). */
  constructor(
    options: ResolvedCacheOptions,
    client: ResolvedClientOptions,
    logger: Logger | undefined,
    parts: FirstLoadParts,
  ) {
    this.#parts = parts;
    this.#store = options.store === undefined ? memoryStore() : keyvStore(options.store, parts);
    this.#shared = options.store !== undefined;
    this.#lifetimes = options.ttl;
    this.#staleIfError = options.staleIfError;
    this.#markerLifetime = markerLifetimeOf(client.timeout, client.maxRetries, parts);
    this.#logger = logger;
    this.#kept = {
      store: this.#store,
      logger: this.#logger,
      quietly: quietlyFor(logger),
      staleIfError: this.#staleIfError,
      markerLifetime: this.#markerLifetime,
      parts,
    };
    this.#scope = scopeOf(client.baseUrl);
    // A runtime without WebCrypto (a page served over plain http) has no keys to keep answers under:
    // every call goes to the API, said once.
    this.#scope.catch(() => {
      logger?.warn('the cache is off: this runtime has no WebCrypto (crypto.subtle) to make its keys');
    });
  }

  async answer<T>(
    route: () => Route,
    shape: ResponseShape<T>,
    options: TransportOptions | undefined,
    send: Send<T>,
    client: ResolvedClientOptions,
  ): Promise<CachedAnswer<T>> {
    // A wrong mode is refused by checkRequestOptions in #locate, through the transport.
    const mode = options?.cache;
    const located = await this.#locate(route, options, client);
    if (located === undefined) return off(await send(options));
    const [called, path, scope, partition, secret] = located;
    const { endpoint } = called;
    const ttl = endpoint === undefined ? 0 : (this.#lifetimes[endpoint.name] ?? endpoint.ttl);
    // An aborted call is refused as the transport refuses it, even when its answer is kept.
    if (options?.signal?.aborted || mode === false || ttl === 0) return off(await send(options));
    const subject = eventSubjectOf(called);
    const key = answerKey(scope, partition, path, subject);
    const maxResponseBytes = options?.maxResponseBytes ?? client.maxResponseBytes;
    const query = { secret, route: called, key, partition, ttl, maxResponseBytes };
    const keptNow = () => unlessAborted(options?.signal, readKept(this.#kept, query, shape));
    let fallback = false;
    if (mode !== 'refresh') {
      const kept = await keptNow();
      if (options?.signal?.aborted) return off(await send(options));
      const status = servedAs(kept, this.#staleIfError);
      if (status === 'hit') return answerOf(kept!, 'hit');
      fallback = status === 'stale';
    }
    const sent = fallback ? coveredByKept(options, this.#parts) : options;
    try {
      const marker = this.#shared && subject !== undefined ? markerKey(scope, subject) : undefined;
      const target = { ...query, scope, marker, path, subject };
      const answer = await this.#send(target, mode === 'refresh', sent, send);
      return { data: answer.data as T, response: answer.response, cacheStatus: 'miss' };
    } catch (error) {
      if (!fallback || options?.signal?.aborted || !servesStale(error, this.#parts)) throw error;
      // Read again: an event or a clear while the request was out may have dropped what was kept.
      const kept = await keptNow();
      const status = servedAs(kept, this.#staleIfError);
      if (options?.signal?.aborted || status === undefined) throw error;
      if (status === 'stale') {
        this.#logger?.warn(`GET ${path} failed; serving the kept answer, expired but within staleIfError`, {
          error: messageOf(error),
        });
      }
      return answerOf(kept!, status);
    }
  }

  /**
   * Where a call's answer is kept, or none: a refused option is the transport's to report (it keeps the
   * key out); a path holding the key the call sends (its headers', else the client's) has no store key.
   */
  async #locate(route: () => Route, options: TransportOptions | undefined, client: ResolvedClientOptions) {
    const { checkRequestOptions, callSecret, queryString, mentionsSecret } = this.#parts;
    try {
      const { headers } = checkRequestOptions(options);
      const called = route();
      const path = called.path + (called.query ? queryString(called.query) : '');
      const scope = await this.#scope;
      const partition = await this.#partitionOf(client, headers as Headers | undefined);
      const secret = callSecret(headers as Headers | undefined, client.secret);
      return mentionsSecret(path, secret) ? undefined : ([called, path, scope, partition, secret] as const);
    } catch {
      return undefined;
    }
  }

  /**
   * Drops what a `score_updated` event makes wrong: the journal's profile and score history and the
   * journal list, each unless it already shows what the event says, in the store (so every process
   * sharing it sees the event) and in flight here.
   */
  async apply(event: ScoreUpdatedEvent): Promise<void> {
    const { MetricError, WebhookPayloadError, VERSION } = this.#parts;
    // Checked by what is read (the receiver has parsed the whole event): this chunk stays free of
    // the webhook parser, which would otherwise be split out of the client's first load.
    const id = (event as { journal_id?: unknown } | null)?.journal_id;
    if (event?.event !== 'score_updated' || !Number.isSafeInteger(id)) {
      throw new WebhookPayloadError('cache.apply takes a score_updated event with an integer journal_id');
    }
    let scope: string;
    try {
      scope = await this.#scope;
    } catch {
      // No WebCrypto: the cache is off, so it holds nothing an event could make wrong.
      return;
    }
    for (const flying of this.#running) {
      if (flying.subject !== id && flying.subject !== 'list') continue;
      flying.events?.add(event);
      // Calls made from now on do not join a request whose answer the event may contradict: the
      // journal's own, or the list when the journal was on the last list seen here (or none was).
      if (flying.subject !== 'list' || this.#listedHere?.has(id as number) !== false)
        this.#unjoinable(flying);
    }
    try {
      const routes = eventRoutesOf(id as number, this.#parts);
      if (this.#shared) await markJournal(this.#store, scope, id as number, routes, this.#markerLifetime);
      await dropContradicted(this.#store, scope, routes, event, VERSION);
    } catch (error) {
      throw new MetricError(`the cache could not drop journal ${id}'s answers: its store failed`, {
        cause: error,
      });
    }
  }

  /** Empties the store (all of it: a Keyv namespace of the SDK's own is best) and forgets requests in flight. */
  async clear(): Promise<void> {
    this.#clears++;
    this.#flights.clear();
    try {
      await this.#store.clear();
    } catch (error) {
      throw new this.#parts.MetricError('the cache could not be cleared: its store failed', { cause: error });
    }
  }

  /**
   * The request for `key` in this partition: the one in flight, or a new one whose answer is kept.
   * Calls join only a request read within the same `maxResponseBytes`: each caller gets a body
   * within its own bound, and none loses an answer to another caller's smaller bound.
   */
  #send(target: Target, refresh: boolean, options: TransportOptions | undefined, send: Send<unknown>) {
    const name = `${target.partition}\n${target.maxResponseBytes}\n${target.path}`;
    let flying = this.#flights.get(name);
    const joined = !(flying === undefined || flying.flight.abandoned || refresh);
    // A refresh replaces what the request in flight would keep: that one's answer may be the older.
    if (refresh && flying !== undefined) flying.superseded = true;
    if (!joined) flying = this.#start(name, target, options, send);
    const { flight, events } = flying!;
    // Each caller but the first gets a copy of its own, so that one changing it cannot change what
    // another sees.
    const answer = flight.join(options?.signal, target.path, joined ? copyOf : undefined, target.secret);
    if (!joined) return answer;
    const seen = events?.count ?? 0;
    return answer.then((own): Promise<Answer<unknown>> | Answer<unknown> =>
      // The answer may predate an event before this call, here or elsewhere (its marker moved): ask again.
      events?.contradicts(own.data, seen) || flying!.moved ? this.#send(target, false, options, send) : own,
    );
  }

  #start(name: string, target: Target, options: TransportOptions | undefined, send: Send<unknown>): Flying {
    const started = Date.now();
    const clears = this.#clears;
    const cleared = () => this.#clears !== clears || created?.superseded === true;
    const view = target.route.endpoint?.scoreEvent;
    const events = view === undefined ? undefined : new EventsInFlight(view, started);
    let created: Flying | undefined;
    const flight = new Flight<Answer<unknown>>(
      async (signal) => {
        try {
          const watch = await this.#watch(target);
          const answer = await send({ ...options, signal, cache: undefined });
          if (target.subject === 'list') this.#listedHere = new Set(journalIds(answer.data));
          const moved = await keepAnswer(this.#kept, target, { watch, started, events, cleared }, answer);
          if (created !== undefined) created.moved = moved;
          return answer;
        } finally {
          if (created !== undefined) {
            this.#running.delete(created);
            this.#unjoinable(created);
          }
        }
      },
      this.#parts,
      target.secret,
    );
    created = { name, flight, subject: target.subject, events, moved: false, superseded: false };
    this.#flights.set(name, created);
    this.#running.add(created);
    // Its callers handle the outcome; a flight every caller left must not count as unhandled.
    flight.promise.catch(() => {});
    return created;
  }

  /** Takes `flying` out of the requests calls may join, unless another has taken its place. */
  #unjoinable(flying: Flying): void {
    if (this.#flights.get(flying.name) === flying) this.#flights.delete(flying.name);
  }

  /** {@link watchForEvents}; `false` when the store failed: the answer cannot be watched, so it is not kept. */
  async #watch(target: Target): Promise<Watched | undefined | false> {
    const { marker, scope, path } = target;
    if (marker === undefined) return undefined;
    const watch = await this.#kept.quietly(() =>
      watchForEvents(this.#store, scope, path, marker, this.#markerLifetime),
    );
    return watch ?? false;
  }
}

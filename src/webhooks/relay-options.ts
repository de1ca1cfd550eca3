import { checkInteger, checkNames, checkObject, maxTimerMs, type Resolved } from '../core/options/checks.js';

/**
 * Options of {@link createEventRelay}.
 *
 * @example
 * ```ts
 * const options: EventRelayOptions = { heartbeatMs: 20_000, maxClients: 5_000, maxBufferedEvents: 16 };
 * ```
 */
export interface EventRelayOptions {
  /**
   * How often an idle stream gets a comment line (`: ping`), in milliseconds, so that proxies and
   * load balancers that close quiet connections keep it open. An integer from 1 to 2_147_483_647.
   * @default 15_000
   */
  heartbeatMs?: number | undefined;
  /**
   * How many streams may be open at once. The next request is answered 503 with `Retry-After`, which
   * an `EventSource` treats as final: `queries.follow` reopens it later.
   * @default 1_000
   */
  maxClients?: number | undefined;
  /**
   * How many messages (events and heartbeats) may wait for one client that does not read them,
   * besides the greeting and replay it was sent on arrival (at most `replayEvents`). Past
   * it the client is dropped, its stream ended with an error, and what it held is freed; its
   * `EventSource` reconnects and gets what it missed from the replay buffer.
   * @default 64
   */
  maxBufferedEvents?: number | undefined;
  /**
   * How many of the latest events are kept for clients that reconnect with `Last-Event-ID`. 0 keeps
   * none.
   * @default 100
   */
  replayEvents?: number | undefined;
  /**
   * The `Retry-After` of a 503 (relay full or closed), in seconds.
   * @default 5
   */
  retryAfterSeconds?: number | undefined;
}

/** The options once checked, every default applied. */
export type ResolvedEventRelayOptions = Resolved<EventRelayOptions>;

/** Checks a relay's options when it is created. @throws {ConfigurationError} naming a bad option. */
export function resolveEventRelayOptions(options: EventRelayOptions | undefined): ResolvedEventRelayOptions {
  // Not null, not an array (`typeof [] === 'object'`): the shared check the receivers' options get too.
  checkObject('options', options);
  const most = Number.MAX_SAFE_INTEGER;
  const resolved = {
    heartbeatMs: checkInteger('heartbeatMs', options?.heartbeatMs, 1, maxTimerMs) ?? 15_000,
    maxClients: checkInteger('maxClients', options?.maxClients, 1, most) ?? 1_000,
    maxBufferedEvents: checkInteger('maxBufferedEvents', options?.maxBufferedEvents, 1, most) ?? 64,
    replayEvents: checkInteger('replayEvents', options?.replayEvents, 0, 1_000_000) ?? 100,
    retryAfterSeconds: checkInteger('retryAfterSeconds', options?.retryAfterSeconds, 0, 86_400) ?? 5,
  };
  // Every option has its value here, its default at least: the names to refuse any other.
  if (options) checkNames('createEventRelay()', options, Object.keys(resolved));
  return resolved;
}

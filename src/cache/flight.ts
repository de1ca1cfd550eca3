import type { Secret } from '../core/redact.js';
import type { Answer } from '../core/transport.js';
import type { EventsInFlight } from './events-in-flight.js';
import type { FirstLoadParts } from './first-load-parts.js';
import type { EventSubject } from './keys.js';

/**
 * One request shared by every identical call made while it is in flight. It runs under a signal of
 * its own, not any caller's: a caller that aborts leaves (its own promise rejects at once) and the
 * others keep waiting. Only when every caller that could abort has left is the request aborted, since
 * nobody is left to read it.
 */
export class Flight<T> {
  readonly #controller = new AbortController();
  #callers = 0;
  #settled = false;
  declare readonly promise: Promise<T>;
  readonly #parts: Pick<FirstLoadParts, 'abortedError'>;
  /** The client's API key, kept out of what a caller that leaves is told. */
  readonly #secret: Secret;

  /** Starts `run` with the flight's own signal. */
  constructor(
    run: (signal: AbortSignal) => Promise<T>,
    parts: Pick<FirstLoadParts, 'abortedError'>,
    secret: Secret,
  ) {
    this.#parts = parts;
    this.#secret = secret;
    this.promise = run(this.#controller.signal);
    const settle = () => {
      this.#settled = true;
    };
    this.promise.then(settle, settle);
  }

  /** Whether the request was aborted because every caller left: a new caller must start another. */
  get abandoned(): boolean {
    return this.#controller.signal.aborted;
  }

  /**
   * The shared answer, for a caller whose `signal` (if any) can make it leave early; passed through
   * `copy` as it lands, before any caller's code runs (a caller with a signal is handed it a few
   * turns later, by when another may have changed it).
   */
  join(
    signal: AbortSignal | undefined,
    path: string,
    copy?: (shared: T) => T,
    secret: Secret = this.#secret,
  ): Promise<T> {
    this.#callers++;
    // Made only for a caller still there: a copy nobody waits for would reject unhandled.
    const own = () => (copy ? this.promise.then(copy) : this.promise);
    if (signal === undefined) return own();
    const { abortedError } = this.#parts;
    return new Promise<T>((resolve, reject) => {
      const leave = () => {
        // Its reason is this caller's: cleaned of this caller's keys, which may not be the flight's.
        abortedError(`GET ${path} was aborted`, signal.reason, secret).then(reject);
        if (--this.#callers === 0 && !this.#settled) this.#controller.abort(signal.reason);
      };
      if (signal.aborted) return leave();
      signal.addEventListener('abort', leave, { once: true });
      own()
        .finally(() => signal.removeEventListener('abort', leave))
        .then(resolve, reject);
    });
  }
}

/** A request in flight, whose score it shows (if any), and the events that arrived meanwhile. */
export interface Flying {
  /** Its place in the map of requests calls may join. */
  readonly name: string;
  readonly flight: Flight<Answer<unknown>>;
  readonly subject: EventSubject | undefined;
  readonly events: EventsInFlight | undefined;
  /** Whether an event of another process moved its marker while it was in flight (see keepAnswer). */
  moved: boolean;
  /** Whether a refresh of the same request started after it: its answer is the older, and is not kept. */
  superseded: boolean;
}

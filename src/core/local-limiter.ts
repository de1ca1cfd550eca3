import type { QuotaLimits } from './options/quota.js';

const minute = 60_000;

/**
 * The limits of one client's own requests: at most `maxConcurrency` in flight, at most
 * `maxRequestsPerMinute` started in any 60 s (a request starts once fewer than that many started in
 * the 60 s before), and none while a 429 that is being retried asks the client to wait. Requests
 * start in the order they came; one whose signal aborts while it waits leaves the line at once, and
 * is never sent.
 *
 * With no limit set and no pause under way, a request goes straight through: the limiter costs a
 * branch, not a queue.
 */
export class LocalLimiter {
  readonly #limited: boolean;
  readonly #concurrency: number;
  readonly #perMinute: number | undefined;
  /** The start times of the last `#perMinute` requests, oldest first. */
  readonly #starts: number[] = [];
  /** The waiting requests' starters, in the order they came (a Set keeps insertion order). */
  readonly #line = new Set<() => void>();
  #inFlight = 0;
  /**
   * When the current pause ends (`Date.now()` time), or 0 once a request found it over: a pause
   * needs no timer of its own, the line's wake-up covers the requests it holds.
   */
  #resumeAt = 0;
  /** Wakes the line when the pause or the window lets its first request start. */
  #wake: ReturnType<typeof setTimeout> | undefined;
  #wakeAt = 0;

  /** `limits` as `resolveClientOptions` checked them. */
  constructor({ maxConcurrency, maxRequestsPerMinute }: QuotaLimits = {}) {
    this.#limited = maxConcurrency !== undefined || maxRequestsPerMinute !== undefined;
    this.#concurrency = maxConcurrency ?? Number.POSITIVE_INFINITY;
    this.#perMinute = maxRequestsPerMinute;
  }

  /** Runs `send` when the limits allow; rejects with the signal's reason if it aborts first. */
  run<T>(send: () => Promise<T>, attempt?: { readonly signal?: AbortSignal | undefined }): Promise<T> {
    if (!this.#limited && this.#resumeAt === 0) return send();
    const signal = attempt?.signal;
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        this.#line.delete(start);
        // A wake-up for nobody would keep a Node process alive until it fires.
        if (this.#line.size === 0) this.#sleep();
        reject(signal?.reason);
      };
      const start = () => {
        signal?.removeEventListener('abort', onAbort);
        this.#inFlight++;
        if (this.#perMinute !== undefined && this.#starts.push(Date.now()) > this.#perMinute) {
          this.#starts.shift();
        }
        let sent: Promise<T>;
        try {
          sent = send();
        } catch (error) {
          sent = Promise.reject(error);
        }
        // The place is given back however `send` ends, or the line would wait for it forever.
        sent
          .finally(() => {
            this.#inFlight--;
            this.#next();
          })
          .then(resolve, reject);
      };
      this.#line.add(start);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#next();
    });
  }

  /**
   * Holds every request not yet started for `ms`: a server that answered 429 to one of them would
   * answer the same to the others. A later, longer pause extends it; a shorter one changes nothing.
   */
  pause(ms: number): void {
    const until = Date.now() + ms;
    if (ms > 0 && until > this.#resumeAt) this.#resumeAt = until;
  }

  /** Starts the requests at the head of the line that the limits allow now; wakes up later for the rest. */
  #next(): void {
    const now = Date.now();
    if (this.#resumeAt <= now) this.#resumeAt = 0;
    for (const start of this.#line) {
      if (this.#inFlight >= this.#concurrency) return;
      const full = this.#perMinute !== undefined && this.#starts.length >= this.#perMinute;
      const at = Math.max(this.#resumeAt, full ? (this.#starts[0] as number) + minute : 0);
      if (at > now) {
        if (this.#wake === undefined || at < this.#wakeAt) {
          this.#wakeAt = at;
          this.#sleep(at - now);
        }
        return;
      }
      this.#line.delete(start);
      start();
    }
  }

  /** Cancels the wake-up, and sets one `ms` from now if given. */
  #sleep(ms?: number): void {
    clearTimeout(this.#wake);
    this.#wake =
      ms === undefined
        ? undefined
        : setTimeout(() => {
            this.#wake = undefined;
            this.#next();
          }, ms);
  }
}

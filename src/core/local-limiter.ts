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
  /** `maxRequestsPerMinute`, or 0 when it is unset. */
  readonly #perMinute: number;
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

  /** `limits` as `resolveClientOptions` checked them. */
  constructor({ maxConcurrency, maxRequestsPerMinute = 0 }: QuotaLimits = {}) {
    this.#limited = maxConcurrency !== undefined || maxRequestsPerMinute > 0;
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
        // Looked at again, so that a wake-up for nobody does not keep a Node process alive.
        this.#next();
        reject(signal?.reason);
      };
      const start = () => {
        signal?.removeEventListener('abort', onAbort);
        this.#inFlight++;
        if (this.#perMinute && this.#starts.push(Date.now()) > this.#perMinute) this.#starts.shift();
        // The place is given back however `send` ends, a synchronous throw included, or the line
        // would wait for it forever.
        new Promise<T>((sent) => sent(send()))
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

  /**
   * Starts the requests at the head of the line that the limits allow now, and sets the one wake-up
   * for when the pause or the window lets the next one start; a request ending looks again.
   */
  #next(): void {
    const now = Date.now();
    if (this.#resumeAt <= now) this.#resumeAt = 0;
    clearTimeout(this.#wake);
    for (const start of this.#line) {
      if (this.#inFlight >= this.#concurrency) return;
      const full = this.#perMinute && this.#starts.length >= this.#perMinute;
      const at = Math.max(this.#resumeAt, full ? (this.#starts[0] as number) + minute : 0);
      if (at > now) {
        this.#wake = setTimeout(() => this.#next(), at - now);
        return;
      }
      this.#line.delete(start);
      start();
    }
  }
}

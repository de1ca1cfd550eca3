import type { QuotaLimits } from './options/quota.js';

const minute = 60_000;

/**
 * The limits of one client's own requests: at most `maxConcurrency` in flight, at most
 * `maxRequestsPerMinute` started in any 60 s (a sliding window), starts at least 60 s ÷ that apart
 * with `pacing: 'even'`, and none while a 429 that is being retried asks the client to wait. Requests
 * start in the order they came; one whose signal aborts while it waits leaves the line at once, and
 * is never sent.
 *
 * A start counts in the window from the time its answer came back (in flight, it counts as if it had
 * just started): the server counts it when it arrives, after the limiter let it go, and a window
 * timed from that earlier moment would open a little before the server's does.
 *
 * With no limit set and no pause under way, a request goes straight through: the limiter costs a
 * branch, not a queue.
 */
export class LocalLimiter {
  readonly #limited: boolean;
  readonly #concurrency: number;
  /** `maxRequestsPerMinute`, or 0 when it is unset. */
  readonly #perMinute: number;
  /** The least time between two starts (`pacing: 'even'`), or 0. */
  readonly #spacing: number;
  /** Counted starts still in flight: each counts in the window as if it had just started. */
  #countedInFlight = 0;
  /**
   * When the counted starts' answers came (`Date.now()` times), those of the last window: in the
   * order they came, which is time order, so the earliest is first (a clock set back only makes a
   * wait longer, never a 429).
   */
  readonly #answeredAt: number[] = [];
  /** When the last request started (`Date.now()` time), for pacing. */
  #lastStart = Number.NEGATIVE_INFINITY;
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
  constructor({ maxConcurrency, maxRequestsPerMinute = 0, pacing }: QuotaLimits = {}) {
    this.#limited = maxConcurrency !== undefined || maxRequestsPerMinute > 0;
    this.#concurrency = maxConcurrency ?? Number.POSITIVE_INFINITY;
    this.#perMinute = maxRequestsPerMinute;
    this.#spacing = pacing === 'even' && maxRequestsPerMinute > 0 ? minute / maxRequestsPerMinute : 0;
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
        const counted = this.#count();
        // The place is given back however `send` ends, a synchronous throw included, or the line
        // would wait for it forever.
        new Promise<T>((sent) => sent(send()))
          .finally(() => {
            if (counted) {
              this.#countedInFlight--;
              this.#answeredAt.push(Date.now());
            }
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

  /** Records a start for the window and the pacing: in flight until its answer is timed. */
  #count(): boolean {
    if (!this.#perMinute) return false;
    this.#lastStart = Date.now();
    this.#countedInFlight++;
    return true;
  }

  /**
   * When the window lets one more request start: now while it holds fewer than the limit, else a
   * window after its earliest answer (never, until an answer comes, while all are in flight). Each
   * answer leaves the window once: a full window costs the same however long the line.
   */
  #windowOpensAt(now: number): number {
    const answered = this.#answeredAt;
    // Cut in one step: a shift per answer gone would move the whole list for each. Past the last
    // answer, `undefined + minute` is NaN, which is never `<= now`.
    let gone = 0;
    while (answered[gone]! + minute <= now) gone++;
    answered.splice(0, gone);
    if (this.#countedInFlight + answered.length < this.#perMinute) return 0;
    return (answered[0] ?? Number.POSITIVE_INFINITY) + minute;
  }

  /**
   * Starts the requests at the head of the line that the limits allow now, and sets the one wake-up
   * for when the pause, the window or the pacing lets the next one start; a request ending looks again.
   */
  #next(): void {
    const now = Date.now();
    if (this.#resumeAt <= now) this.#resumeAt = 0;
    clearTimeout(this.#wake);
    for (const start of this.#line) {
      if (this.#inFlight >= this.#concurrency) return;
      const window = this.#perMinute ? this.#windowOpensAt(now) : 0;
      const at = Math.max(this.#resumeAt, window, this.#lastStart + this.#spacing);
      // All counted starts in flight: the next answer looks again.
      if (at === Number.POSITIVE_INFINITY) return;
      if (at > now) {
        this.#wake = setTimeout(() => this.#next(), at - now);
        return;
      }
      this.#line.delete(start);
      start();
    }
  }
}

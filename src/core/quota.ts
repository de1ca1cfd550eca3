import type PQueue from 'p-queue';
import { sleep } from './abort.js';
import { MetricError } from './errors.js';
import type { QuotaLimits } from './options/quota.js';
import type { QuotaAttempt, RequestQuota } from './quota-types.js';

const minute = 60_000;

/**
 * The requests one client may send: at most `maxConcurrency` in flight, at most
 * `maxRequestsPerMinute` started in any 60 s (p-queue's strict sliding window), and none at all
 * while a 429 that is being retried asks the client to wait. A request waiting for its turn is
 * dropped as soon as its signal aborts, and is then never sent.
 *
 * With no limit set and no pause under way, a request goes straight through: the limiter costs a
 * branch, not a queue. p-queue itself is loaded only by a client that sets a limit, so that a
 * browser app without limits does not download it.
 */
export class Quota implements RequestQuota {
  readonly #queue: Promise<PQueue> | undefined;
  /** The queue once loaded, so that a pause takes hold at once. */
  #loaded: PQueue | undefined;
  /** When the current 429 pause ends (`Date.now()` time), or 0 when there is none. */
  #resumeAt = 0;
  #resumeTimer: ReturnType<typeof setTimeout> | undefined;

  /** `limits` as `resolveClientOptions` checked them. */
  constructor(limits: QuotaLimits = {}) {
    const { maxConcurrency: concurrency, maxRequestsPerMinute: perMinute } = limits;
    if (concurrency === undefined && perMinute === undefined) return;
    this.#queue = import('p-queue').then(
      ({ default: Queue }) => {
        this.#loaded = new Queue({
          concurrency: concurrency ?? Number.POSITIVE_INFINITY,
          ...(perMinute === undefined ? {} : { intervalCap: perMinute, interval: minute, strict: true }),
        });
        if (this.#resumeAt > Date.now()) this.#loaded.pause();
        return this.#loaded;
      },
      (error: unknown) => {
        throw new MetricError('Could not load p-queue, which maxConcurrency and maxRequestsPerMinute need', {
          cause: error,
        });
      },
    );
    // A client that never sends must not leave a failed load as an unhandled rejection.
    this.#queue.catch(() => {});
  }

  /** Runs `send` when the quota allows; rejects with the signal's reason if it aborts first. */
  run<T>(send: () => Promise<T>, attempt?: QuotaAttempt): Promise<T> {
    if (this.#queue === undefined && this.#resumeAt === 0) return send();
    return this.#runInTurn(send, attempt?.signal);
  }

  /**
   * Nothing here: within one process a request after a daily-limit 429 meets the same 429 and is
   * refused as it always was; sharing the refusal across processes is the shared quota's job.
   */
  block(_ms: number): void {}

  /**
   * Holds every request of the client for `ms`: a server that answered 429 to one of them would
   * answer the same to the others. A later, longer pause extends it; a shorter one changes nothing.
   */
  pause(ms: number): void {
    const until = Date.now() + ms;
    if (ms <= 0 || until <= this.#resumeAt) return;
    this.#resumeAt = until;
    // Requests arriving meanwhile stop at #resumeAt; pausing the queue holds those already in it.
    this.#loaded?.pause();
    clearTimeout(this.#resumeTimer);
    this.#resumeTimer = setTimeout(() => {
      this.#resumeAt = 0;
      this.#loaded?.start();
    }, ms);
    // The pause alone must not keep a Node process alive: the requests waiting hold timers of their own.
    (this.#resumeTimer as { unref?: () => void }).unref?.();
  }

  async #runInTurn<T>(send: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    for (let wait = this.#resumeAt - Date.now(); wait > 0; wait = this.#resumeAt - Date.now()) {
      await sleep(wait, signal);
    }
    signal?.throwIfAborted();
    if (this.#queue === undefined) return send();
    const queue = await this.#queue;
    signal?.throwIfAborted();
    return queue.add(() => send(), { signal });
  }
}

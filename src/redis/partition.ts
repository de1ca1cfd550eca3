import { sleep } from '../core/abort.js';
import { QuotaUnavailableError, RateLimitError } from '../core/errors.js';
import type { QuotaAttempt, RequestQuota } from '../core/quota-types.js';
import { type Script, type ScriptRunner, script } from './adapter.js';
import { ACQUIRE_SCRIPT, HOLD_SCRIPT, RELEASE_SCRIPT } from './lua-scripts.js';

const acquireScript = script(ACQUIRE_SCRIPT);
const releaseScript = script(RELEASE_SCRIPT);
const holdScript = script(HOLD_SCRIPT);

/** How long a lease outlives its attempt's timeout: the margin for a holder that dies mid-attempt. */
export const leaseMarginMs = 5_000;
/** How long a waiting ticket keeps its place in line past the wait it was told, unless it asks again. */
const lineGraceMs = 5_000;
/** Polling while a place is held elsewhere: from this, doubling, to the cap (woken early by a local release). */
const firstPollMs = 5;
const pollCapMs = 200;
/**
 * How long an ended attempt waits for an acquire of this process to carry it to Redis before it is
 * sent alone: one request after another then costs one round trip each, not two.
 */
export const carryMs = 1;
/** The attempt timeout assumed when a caller gives none (the client's own default). */
const defaultTimeout = 30_000;

/** The limits and window lengths as the acquire script takes them (0: no such limit). */
export interface PartitionLimits {
  readonly perMinute: number;
  readonly minuteMs: number;
  readonly perDay: number;
  readonly dayMs: number;
  readonly concurrency: number;
}

/** The Redis keys of one partition (one base URL and API key), in the order the scripts take them. */
export interface PartitionKeys {
  readonly minute: string;
  readonly day: string;
  readonly leases: string;
  readonly line: string;
  readonly lineExpiry: string;
  readonly lineSeq: string;
  readonly pause: string;
  readonly block: string;
}

/**
 * The quota of every client in this process that sends as one base URL and API key, shared through
 * Redis with every other process that does: one acquire script per request when places are free.
 */
export class RedisPartition implements RequestQuota {
  readonly #run: ScriptRunner;
  readonly #keys: PartitionKeys;
  readonly #acquireKeys: string[];
  readonly #releaseKeys: string[];
  readonly #limitArgs: string[];
  readonly #windowArgs: string[];
  /** Whether an attempt has anything to give back: a lease, or a start to count from its end. */
  readonly #releases: boolean;
  /** Unique per process and partition, so that tickets never collide across processes. */
  readonly #id = `${process.pid.toString(36)}.${Math.random().toString(36).slice(2, 10)}`;
  #seq = 0;
  /** Local mirrors of the pause and block (`Date.now()` time), so that this process stops at once. */
  #pausedUntil = 0;
  #blockedUntil = 0;
  /** Waiters polling for a place held elsewhere, woken when this process gives one back. */
  readonly #wakers = new Set<() => void>();
  /** Tickets of attempts that have ended, not yet told to Redis: the next acquire carries them. */
  #ended: string[] = [];
  #carryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Calls of this process acquiring a place or under way: the end of the last one is sent at once. */
  #active = 0;

  constructor(run: ScriptRunner, keys: PartitionKeys, limits: PartitionLimits) {
    this.#run = run;
    this.#keys = keys;
    const k = keys;
    this.#acquireKeys = [k.minute, k.day, k.leases, k.line, k.lineExpiry, k.lineSeq, k.pause, k.block];
    this.#releaseKeys = [k.minute, k.day, k.leases, k.line, k.lineExpiry];
    this.#limitArgs = [
      limits.perMinute,
      limits.minuteMs,
      limits.perDay,
      limits.dayMs,
      limits.concurrency,
    ].map(String);
    this.#windowArgs = [String(limits.minuteMs), String(limits.dayMs)];
    this.#releases = limits.concurrency > 0 || limits.perMinute > 0 || limits.perDay > 0;
  }

  async run<T>(send: () => Promise<T>, attempt?: QuotaAttempt): Promise<T> {
    const signal = attempt?.signal;
    const timeout = attempt?.timeout ?? defaultTimeout;
    this.#throwIfBlocked();
    for (let wait = this.#pausedUntil - Date.now(); wait > 0; wait = this.#pausedUntil - Date.now()) {
      await sleep(wait, signal);
    }
    const ticket = `${this.#id}.${(++this.#seq).toString(36)}`;
    this.#active++;
    try {
      await this.#acquire(ticket, timeout, signal);
    } catch (error) {
      this.#active--;
      throw error;
    }
    try {
      return await send();
    } finally {
      this.#active--;
      if (this.#releases) this.#giveBack(ticket);
    }
  }

  pause(ms: number): void {
    if (!(ms > 0)) return;
    this.#pausedUntil = Math.max(this.#pausedUntil, Date.now() + ms);
    this.#hold(this.#keys.pause, ms);
  }

  block(ms: number): void {
    if (!(ms > 0)) return;
    this.#blockedUntil = Math.max(this.#blockedUntil, Date.now() + ms);
    this.#hold(this.#keys.block, ms);
  }

  /** Takes a place for `ticket`, waiting in Redis's line as long as it must; each ask within `timeout`. */
  async #acquire(ticket: string, timeout: number, signal: AbortSignal | undefined): Promise<void> {
    const args = [ticket, ...this.#limitArgs, String(timeout + leaseMarginMs), String(lineGraceMs)];
    let poll = firstPollMs;
    try {
      for (;;) {
        signal?.throwIfAborted();
        const ended = this.#takeEnded();
        let reply: [number, number];
        try {
          reply = await this.#ask(acquireScript, this.#acquireKeys, [...args, ...ended], timeout, signal);
        } catch (error) {
          for (const done of ended) this.#giveBack(done);
          throw error;
        }
        if (ended.length > 0) this.#wake();
        const [code, ms] = reply;
        if (code === 0) return;
        if (code === 2) {
          this.#blockedUntil = Math.max(this.#blockedUntil, Date.now() + ms);
          this.#throwIfBlocked();
        }
        if (ms > 0) {
          // The script knows when this place in line opens (a window or a pause): no polling before.
          await sleep(ms, signal);
        } else {
          await this.#waitForRelease(poll, signal);
          poll = Math.min(poll * 2, pollCapMs);
        }
      }
    } catch (error) {
      // Leave the line, and give back a place granted after this call stopped listening (a timeout).
      this.#giveBack(ticket);
      throw error;
    }
  }

  /** One script call, answered within `timeout` or refused with QuotaUnavailableError. */
  async #ask(
    s: Script,
    keys: string[],
    args: string[],
    timeout: number,
    signal: AbortSignal | undefined,
  ): Promise<[number, number]> {
    const call = this.#run(s, keys, args);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(new QuotaUnavailableError(`Redis did not answer within ${timeout} ms; nothing was sent`)),
        timeout,
      );
      onAbort = () => reject(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const reply = await Promise.race([call, limit]);
      return parseReply(reply);
    } catch (error) {
      if (error instanceof QuotaUnavailableError || signal?.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new QuotaUnavailableError(`Redis failed (${reason}); nothing was sent`, { cause: error });
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      // A call that loses the race settles later: never an unhandled rejection.
      call.catch(() => {});
    }
  }

  /** Waits `ms`, or less when this process gives a place back; rejects at once on abort. */
  #waitForRelease(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.#wakers.delete(done);
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        done();
        reject(signal?.reason);
      };
      const timer = setTimeout(done, ms);
      this.#wakers.add(done);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Ends an attempt in Redis (its starts count from now, its lease and place in line are given back):
   * at once when no other call of this process is under way, else on the next acquire of this process,
   * or alone if none comes soon. Never waited for: a lost end costs only time, as the lease ends by
   * itself.
   */
  #giveBack(ticket: string): void {
    this.#ended.push(ticket);
    // The last call of this process to end sends its end at once: a process that stops (or closes
    // its Redis client) right after must not leave its start counted from the grant, which can be
    // earlier than the server's count of it by the time in transit.
    if (this.#active === 0) {
      this.#sendEnded();
      return;
    }
    this.#carryTimer ??= setTimeout(() => this.#sendEnded(), carryMs);
  }

  #sendEnded(): void {
    const tickets = this.#takeEnded();
    if (tickets.length === 0) return;
    this.#run(releaseScript, this.#releaseKeys, [...this.#windowArgs, ...tickets]).then(
      () => this.#wake(),
      () => {},
    );
  }

  #takeEnded(): string[] {
    clearTimeout(this.#carryTimer);
    this.#carryTimer = undefined;
    return this.#ended.splice(0);
  }

  #wake(): void {
    for (const wake of [...this.#wakers]) wake();
  }

  #hold(key: string, ms: number): void {
    this.#run(holdScript, [key], [String(Math.ceil(ms))]).catch(() => {});
  }

  #throwIfBlocked(): void {
    const left = this.#blockedUntil - Date.now();
    if (left > 0) throw blockedError(left);
  }
}

function parseReply(reply: unknown): [number, number] {
  if (Array.isArray(reply) && reply.length === 2) {
    const [code, ms] = reply.map(Number) as [number, number];
    if (Number.isFinite(code) && Number.isFinite(ms)) return [code, ms];
  }
  throw new Error('unexpected reply to the acquire script');
}

/** The refusal of a request that was never sent: another client sharing the quota met the daily limit. */
function blockedError(ms: number): RateLimitError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const message = `A client sharing this quota was refused by the daily limit: not sent; retry in ${seconds} s`;
  return new RateLimitError(429, new Headers({ 'retry-after': String(seconds) }), { message }, seconds);
}

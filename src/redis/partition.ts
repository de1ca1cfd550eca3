import { sleep } from '../core/abort.js';
import { QuotaUnavailableError, RateLimitError } from '../core/errors.js';
import { maxTimerMs } from '../core/options/checks.js';
import type { QuotaAttempt, RequestQuota } from '../core/quota-types.js';
import { acquireArgv, acquireKeyNames } from './acquire-script.js';
import { type Script, type ScriptRunner, script } from './adapter.js';
import { askWithin, type Stoppable } from './ask.js';
import type { Deadlines } from './deadlines.js';
import { EndedAttempts } from './ends.js';
import { HoldSends } from './holds.js';
import { argTemplate, keyNames } from './keys.js';
import { RELEASE_SCRIPT, releaseArgs } from './lua-scripts.js';
import { type PartitionParts, scriptSettings } from './partition-parts.js';
import { checkAcquireReply, redisFailure } from './reply.js';
import { patientRunner } from './transient.js';

const releaseScript = script(RELEASE_SCRIPT);

/** How long a lease outlives its attempt's timeout: the margin for a holder that dies mid-attempt. */
export const leaseMarginMs = 5_000;
/** Polling while a place is held elsewhere: from this, doubling, to the cap (woken early by a local release). */
const firstPollMs = 5;
const pollCapMs = 200;
/** How long an ended attempt waits for an acquire of this process to carry it before it goes alone. */
const idleMs = 5;
/** How long an end or a hold sent alone keeps trying through a cluster's transient answers. */
const patienceMs = 5_000;
/** The attempt timeout assumed when a caller gives none (the client's own default). */
const defaultTimeout = 30_000;
/**
 * What a failed send of ends means, as close() reports it: of calls that were sent, or that stopped
 * waiting while Redis may have granted them a place unseen.
 */
const endsLost =
  'the ends of the last calls did not reach it: a place Redis gave them stays held until its lease ends';
/** The longest a 429 pause and a daily-limit block are kept: a retried 429 waits at most a minute or so. */
export const maxPauseMs = 120_000;
export const maxBlockMs = 86_400_000;

/**
 * The quota of every client in this process that sends as one base URL and API key, shared through
 * Redis with every other process that does: one script per request when places are free.
 */
export class RedisPartition implements RequestQuota {
  readonly #run: ScriptRunner;
  readonly #keys: string[];
  readonly #deadlines: Deadlines;
  /** The acquire script made for these limits, and the keys it takes. */
  readonly #acquire: Script;
  readonly #acquireKeys: string[];
  readonly #releaseArgs: readonly string[];
  /** The longest wait the acquire script can tell: the longest window, or a pause. */
  readonly #waitReach: number;
  /** Whether an attempt has anything to give back: a lease, or a start to count from its end. */
  readonly #releases: boolean;
  /** Unique per process and partition, so that tickets never collide across processes. */
  readonly #id = `${process.pid.toString(36)}.${Math.random().toString(36).slice(2, 10)}`;
  #seq = 0;
  /**
   * Local mirrors of the pause and block, so that this process stops at once: `performance.now()`
   * time, which a step of the wall clock does not stretch or cut short.
   */
  #pausedUntil = 0;
  #blockedUntil = 0;
  /** Waiters polling for a place held elsewhere, woken when this process gives one back. */
  readonly #wakers = new Set<() => void>();
  readonly #ended: EndedAttempts;
  /** Pauses and blocks for Redis, for close() to wait for (and send again, those that failed). */
  readonly #holds: HoldSends;
  /** Calls taking a place, for close() to wait for once it has told them to stop. */
  readonly #taking = new Set<Promise<void>>();
  /** Waiters sleeping on a known wait (a window, a pause, a paced start), woken by close(). */
  readonly #sleepers = new Set<() => void>();
  /** Waiters whose question Redis has not answered yet, refused by close(). */
  readonly #asking = new Set<Stoppable>();
  readonly #leaseMs: number | undefined;
  /** Calls whose request is under way, and the longest lease a call has taken: each ends within it. */
  #flying = 0;
  #longestLease = 0;
  /** What close() waits for while calls are in flight, and what wakes it once none is. */
  #landing: Promise<void> | undefined;
  #landed: (() => void) | undefined;
  #closed = false;

  constructor(keys: string[], { run, limits, deadlines, acquire, owe }: PartitionParts) {
    this.#run = run;
    // Ends and holds sent alone go through a cluster's transient answers, for a while.
    const patient = patientRunner(run, patienceMs);
    const owing: typeof patient = (...call) =>
      patient(...call).catch((error: unknown) => {
        owe(this);
        throw error;
      });
    this.#keys = keys;
    this.#leaseMs = limits.leaseMs;
    this.#deadlines = deadlines;
    const fixed = scriptSettings(limits);
    this.#acquire = acquire;
    this.#acquireKeys = acquireKeyNames(fixed).map((name) => keys[keyNames.indexOf(name)] as string);
    this.#releaseArgs = argTemplate(releaseArgs, fixed).template;
    this.#waitReach = Math.max(limits.minuteMs, limits.perDay > 0 ? limits.dayMs : 0, maxPauseMs);
    this.#releases = limits.concurrency > 0 || limits.perMinute > 0 || limits.perDay > 0;
    this.#holds = new HoldSends(owing, keys);
    this.#ended = new EndedAttempts(idleMs, (tickets) =>
      owing(releaseScript, this.#keys, [...this.#releaseArgs, ...tickets]).then(
        () => this.#wake(),
        (error: unknown) => {
          throw redisFailure(error, endsLost);
        },
      ),
    );
  }

  async run<T>(send: () => Promise<T>, attempt?: QuotaAttempt): Promise<T> {
    this.#throwIfClosed();
    const signal = attempt?.signal;
    const timeout = attempt?.timeout ?? defaultTimeout;
    this.#throwIfBlocked();
    await this.#pauseOver(signal);
    const ticket = `${this.#id}.${(++this.#seq).toString(36)}`;
    const leaseMs = this.#leaseMs ?? timeout + leaseMarginMs;
    const taking = this.#take(ticket, String(leaseMs), timeout, signal);
    this.#taking.add(taking);
    try {
      await taking;
    } finally {
      this.#taking.delete(taking);
    }
    this.#flying++;
    if (leaseMs > this.#longestLease) this.#longestLease = leaseMs;
    try {
      return await send();
    } finally {
      // A ticket granted after waiting has left the line already.
      if (this.#releases) this.#ended.add(ticket, this.#closed);
      if (--this.#flying === 0) this.#landed?.();
    }
  }

  pause(ms: number): void {
    // Within a block this process knows of, nothing was sent: the pause comes from the block's own
    // refusal, retried (its seconds rounded up), and the block already holds every process.
    if (!(ms > 0) || (this.#blockedUntil > 0 && performance.now() + ms <= this.#blockedUntil + 1_000)) return;
    const held = Math.min(ms, maxPauseMs);
    this.#pausedUntil = Math.max(this.#pausedUntil, performance.now() + held);
    this.#holds.add('pause', held);
  }

  block(ms: number): void {
    if (!(ms > 0)) return;
    const held = Math.min(ms, maxBlockMs);
    this.#blockedUntil = Math.max(this.#blockedUntil, performance.now() + held);
    this.#holds.add('block', held);
  }

  /**
   * Refuses later calls and those still waiting, and resolves once the calls in flight have ended, or
   * the longest lease has passed (theirs have all run out: Redis no longer counts them). Their ends
   * are for close() to send.
   */
  land(): Promise<void> {
    this.#closed = true;
    // Calls still waiting stop now, and their places in line go with the ends close() sends.
    for (const wake of [...this.#sleepers, ...this.#wakers]) wake();
    for (const ask of [...this.#asking]) ask.stop(closedError());
    if (this.#flying === 0) return Promise.resolve();
    this.#landing ??= new Promise((resolve) => {
      // The longest lease may pass what a timer can wait (a call's timeout at setTimeout's limit).
      const timer = setTimeout(resolve, Math.min(this.#longestLease, maxTimerMs));
      this.#landed = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    return this.#landing;
  }

  /**
   * Sends every end and hold not yet in Redis, those whose send failed among them, once the calls in
   * flight have landed (see {@link RedisPartition.land}), and resolves when Redis has them; later calls
   * are refused.
   */
  async close(): Promise<void> {
    await this.land();
    await Promise.allSettled(this.#taking);
    await Promise.all([this.#ended.flush(), this.#holds.flush()]);
  }

  /**
   * Tells Redis of the ends waiting here for an acquire to carry them, so that what it holds counts no
   * call of this process that has ended. A send that fails keeps its ends for close(), as any does.
   */
  sendEnds(): Promise<void> {
    return this.#ended.flush().catch(() => {});
  }

  /** Takes a place for `ticket`, waiting in Redis's line as long as it must; each ask answered within `timeout`. */
  async #take(
    ticket: string,
    lease: string,
    timeout: number,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    // Leaves the line, and gives back a place granted after this call stopped listening. Again when an
    // ask Redis runs after the call gave up (and sent its end) answers: it may grant or queue the ticket.
    const leave = () => this.#ended.add(`~${ticket}`, true);
    const within = { deadlines: this.#deadlines, timeout, signal, asking: this.#asking, late: leave };
    let asked = false;
    let poll = firstPollMs;
    try {
      for (;;) {
        signal?.throwIfAborted();
        const ended = this.#ended.take();
        const args = acquireArgv(ticket, lease, asked, ended);
        let reply: ReturnType<typeof checkAcquireReply>;
        try {
          const answer = await askWithin(this.#run, this.#acquire, this.#acquireKeys, args, within);
          reply = checkAcquireReply(answer, this.#waitReach, maxBlockMs);
        } catch (error) {
          // Whether Redis ran the script is unknown: the ends go again (ending twice changes nothing).
          this.#ended.restore(ended);
          throw error;
        }
        if (ended.length > 0) this.#wake();
        this.#throwIfClosed();
        if (reply.code === 0) {
          // A paced start reserved ahead: its time comes, and any pause drawn meanwhile ends, or close().
          if (reply.ms > 0) {
            await sleep(reply.ms, signal, this.#sleepers);
            await this.#pauseOver(signal);
          }
          this.#throwIfClosed();
          return;
        }
        asked = true;
        if (reply.code === 2) {
          this.#blockedUntil = Math.max(this.#blockedUntil, performance.now() + reply.ms);
          this.#throwIfBlocked();
        }
        if (reply.ms > 0) {
          // The script knows when this place in line opens (a window or a pause): no polling before.
          await sleep(reply.ms, signal, this.#sleepers);
        } else {
          // Woken early when this process gives a place back.
          await sleep(poll, signal, this.#wakers);
          poll = Math.min(poll * 2, pollCapMs);
        }
        this.#throwIfClosed();
      }
    } catch (error) {
      // Always both: an ask whose answer never came (a timeout, an abort) may have put the ticket in
      // line unseen.
      leave();
      throw error;
    }
  }

  #wake(): void {
    if (this.#wakers.size > 0) for (const wake of [...this.#wakers]) wake();
  }

  #throwIfClosed(): void {
    if (this.#closed) throw closedError();
  }

  /** The local pause's ms left; the clock is read only while there is one. */
  /** Resolves once no pause this process knows of holds its calls (or rejects: closed, aborted). */
  async #pauseOver(signal: AbortSignal | undefined): Promise<void> {
    for (let wait = this.#pauseLeft(); wait > 0; wait = this.#pauseLeft()) {
      await sleep(wait, signal, this.#sleepers);
      this.#throwIfClosed();
    }
  }

  #pauseLeft(): number {
    if (this.#pausedUntil === 0) return 0;
    const left = this.#pausedUntil - performance.now();
    if (left <= 0) this.#pausedUntil = 0;
    return left;
  }

  #throwIfBlocked(): void {
    if (this.#blockedUntil === 0) return;
    const left = this.#blockedUntil - performance.now();
    if (left > 0) throw blockedError(left);
    this.#blockedUntil = 0;
  }
}

/** The refusal of a call, or of a retry of one, made or still waiting when the quota was closed. */
function closedError(): QuotaUnavailableError {
  return new QuotaUnavailableError('The Redis quota was closed (quota.close()); nothing was sent after it');
}

/** The refusal of a request that was never sent: another client sharing the quota met the daily limit. */
function blockedError(ms: number): RateLimitError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const message = `A client sharing this quota was refused by the daily limit: not sent; retry in ${seconds} s`;
  return new RateLimitError(429, new Headers({ 'retry-after': String(seconds) }), { message }, seconds);
}

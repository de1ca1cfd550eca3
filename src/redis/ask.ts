import { QuotaUnavailableError } from '../core/errors.js';
import type { Script, ScriptRunner } from './adapter.js';
import type { Deadlines, Expiring } from './deadlines.js';
import { redisFailure } from './reply.js';
import { runThroughTransients } from './transient.js';

/** A question under way that its owner can refuse before Redis answers: see {@link askWithin}. */
export interface Stoppable {
  stop(reason: unknown): void;
}

/**
 * One script, answered within `timeout` or refused with QuotaUnavailableError, and rejected with the
 * signal's reason when it aborts; watched by `deadlines`, with no timer of its own. A cluster's
 * transient answers are asked again until then. While under way it is in `asking`, whose owner may
 * stop it: a Redis that holds a question (frozen, paused) must not hold quota.close() up.
 */
export function askWithin(
  run: ScriptRunner,
  script: Script,
  keys: string[],
  args: string[],
  within: {
    deadlines: Deadlines;
    timeout: number;
    signal: AbortSignal | undefined;
    asking?: Set<Stoppable> | undefined;
    /**
     * Told when Redis answers after the ask was settled by its deadline, its abort or its owner: the
     * script ran all the same, later than anything sent after the refusal (a Redis client may send a
     * command again by itself, on its own timer).
     */
    late?: (() => void) | undefined;
  },
): Promise<unknown> {
  const ask = new Ask(within.deadlines, within.timeout, within.signal, within.asking, within.late);
  return ask.send(run, script, keys, args);
}

/**
 * The state of one {@link askWithin}: settled once, by the answer, the deadline or the abort. Its
 * methods serve as the deadline's and the abort listener's callbacks: each call makes one closure, for
 * its promise, whatever it waits for.
 */
class Ask implements Expiring, Stoppable {
  readonly at: number;
  readonly #deadlines: Deadlines;
  readonly #timeout: number;
  readonly #signal: AbortSignal | undefined;
  readonly #asking: Set<Stoppable> | undefined;
  readonly #late: (() => void) | undefined;
  #settled = false;
  #resolve: (reply: unknown) => void = ignore;
  #reject: (error: unknown) => void = ignore;

  constructor(
    deadlines: Deadlines,
    timeout: number,
    signal: AbortSignal | undefined,
    asking: Set<Stoppable> | undefined,
    late: (() => void) | undefined,
  ) {
    this.at = performance.now() + timeout;
    this.#late = late;
    this.#deadlines = deadlines;
    this.#timeout = timeout;
    this.#signal = signal;
    this.#asking = asking;
  }

  send(run: ScriptRunner, script: Script, keys: string[], args: string[]): Promise<unknown> {
    const answered = new Promise<unknown>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.#deadlines.add(this);
    this.#asking?.add(this);
    this.#signal?.addEventListener('abort', this, { once: true });
    void this.#await(run, script, keys, args);
    return answered;
  }

  /** The deadline came first. */
  expire(): void {
    this.#settle();
    this.#reject(
      new QuotaUnavailableError(`Redis did not answer within ${this.#timeout} ms; nothing was sent`),
    );
  }

  /** Its owner stopped listening first (close()): an answer that comes later settles nothing. */
  stop(reason: unknown): void {
    this.#settle();
    this.#reject(reason);
  }

  /** The abort came first (an EventTarget listener object). */
  handleEvent(): void {
    this.#settle();
    this.#reject(this.#signal?.reason);
  }

  /** Whether a transient answer may be asked again after `backoffMs`: unsettled, before the deadline. */
  more(backoffMs: number): boolean {
    return !this.#settled && performance.now() + backoffMs < this.at;
  }

  /** An answer that comes after the deadline or the abort settles nothing: the promise is settled. */
  async #await(run: ScriptRunner, script: Script, keys: string[], args: string[]): Promise<void> {
    try {
      const reply = await runThroughTransients(run, script, keys, args, this);
      if (this.#settled) this.#late?.();
      this.#settle();
      this.#resolve(reply);
    } catch (error) {
      this.#settle();
      this.#reject(redisFailure(error));
    }
  }

  #settle(): void {
    this.#settled = true;
    this.#deadlines.delete(this);
    this.#asking?.delete(this);
    this.#signal?.removeEventListener('abort', this);
  }
}

const ignore = () => {};

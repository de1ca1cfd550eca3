import { script } from './adapter.js';
import { HOLD_SCRIPT } from './lua-scripts.js';
import { redisFailure } from './reply.js';
import type { ScriptCall } from './transient.js';

const holdScript = script(HOLD_SCRIPT);

/** A shared 429 pause, or a daily-limit block. */
export type Hold = 'pause' | 'block';

/**
 * The pauses and blocks of one partition on their way to Redis, which tells every sharing process of
 * them. Each goes at once, alone. A send that fails is remembered (the latest end of each kind, until a
 * send that ends as late reaches Redis) and goes again with close(): a block Redis never got lets the
 * other processes run into the daily limit, so close() may not resolve while one is missing.
 */
export class HoldSends {
  readonly #send: ScriptCall;
  readonly #keys: string[];
  /** Sends under way, for {@link HoldSends.flush} to wait for. */
  readonly #sending = new Set<Promise<unknown>>();
  /** When the latest failed hold of each kind ends, by the monotonic clock (performance.now()). */
  readonly #unsent = new Map<Hold, number>();

  constructor(send: ScriptCall, keys: string[]) {
    this.#send = send;
    this.#keys = keys;
  }

  /** Sends `hold` for `ms` from now; how it went, close() learns through {@link HoldSends.flush}. */
  add(hold: Hold, ms: number): void {
    const until = performance.now() + ms;
    const sent = this.#send(holdScript, this.#keys, [hold, String(Math.ceil(ms))]);
    this.#sending.add(sent);
    sent.then(
      () => {
        this.#sending.delete(sent);
        // Redis keeps the later end of two: one at least as late covers the failed one.
        if ((this.#unsent.get(hold) ?? Number.POSITIVE_INFINITY) <= until) this.#unsent.delete(hold);
      },
      () => {
        this.#sending.delete(sent);
        this.#unsent.set(hold, Math.max(this.#unsent.get(hold) ?? 0, until));
      },
    );
  }

  /**
   * Sends again each failed hold not yet over, and resolves when Redis has it and every send under way
   * (rejects with QuotaUnavailableError if not). A hold that fails here stays remembered, as any other.
   */
  async flush(): Promise<void> {
    const now = performance.now();
    for (const [hold, until] of [...this.#unsent]) {
      // A hold already over stops no process: Redis need not hear of it.
      if (until <= now) this.#unsent.delete(hold);
      else this.add(hold, until - now);
    }
    const sends = [...this.#sending].map((sent) =>
      sent.catch((error: unknown) => {
        throw redisFailure(error, 'the quota was closed');
      }),
    );
    await Promise.all(sends);
  }
}

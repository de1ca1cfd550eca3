/**
 * The deadlines of the script calls under way, watched by one timer for all of them: a timer per call
 * (set and cleared around each answer) would cost more than the rest of the quota's own work. The
 * timer is re-armed only for a deadline earlier than the one it waits for, and does not hold the
 * process while no call is under way.
 */
export class Deadlines {
  readonly #pending = new Set<Expiring>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #firesAt = Number.POSITIVE_INFINITY;

  /** Calls `deadline.expire()` once `deadline.at` has come, unless {@link Deadlines.delete} comes first. */
  add(deadline: Expiring): void {
    this.#pending.add(deadline);
    if (deadline.at < this.#firesAt) this.#arm(deadline.at);
    else if (this.#pending.size === 1) this.#timer?.ref();
  }

  delete(deadline: Expiring): void {
    this.#pending.delete(deadline);
    if (this.#pending.size === 0) this.#timer?.unref();
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#firesAt = at;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, at - performance.now()));
  }

  #fire(): void {
    this.#timer = undefined;
    this.#firesAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const deadline of this.#pending) {
      if (deadline.at <= now) {
        this.#pending.delete(deadline);
        deadline.expire();
      } else next = Math.min(next, deadline.at);
    }
    if (next < Number.POSITIVE_INFINITY) this.#arm(next);
  }
}

/** What {@link Deadlines} watches: a time (`performance.now()`) and what to do when it comes. */
export interface Expiring {
  readonly at: number;
  expire(): void;
}

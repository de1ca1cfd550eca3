/**
 * The attempts of one partition that have ended and that Redis has not been told of yet. The next
 * acquire of the process carries them (one script per request when requests run one after another);
 * when none comes within `idleMs`, or the quota closes, they go alone. One timer serves every end: it is
 * armed once and re-armed only while ends are waiting.
 *
 * Each end goes as `ticket@ms`, how long ago its answer came back by this process's clock, so that
 * Redis counts the start from then rather than from when it heard of it: a duration, whatever the
 * clocks' skew, and never more than the true delay (the trip to Redis only adds to it).
 */
export class EndedAttempts {
  readonly #idleMs: number;
  readonly #send: (tickets: string[]) => Promise<unknown>;
  #tickets: string[] = [];
  /** When each waiting end came (performance.now()), in the order of `#tickets`. */
  #times: number[] = [];
  /** When the oldest waiting end was added (performance.now()). */
  #since = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Sends alone under way, for {@link EndedAttempts.flush} to wait for. */
  readonly #sending = new Set<Promise<unknown>>();

  constructor(idleMs: number, send: (tickets: string[]) => Promise<unknown>) {
    this.#idleMs = idleMs;
    this.#send = send;
  }

  /** Records an end; `now` sends it (and any other waiting) at once. */
  add(ticket: string, now = false): void {
    const at = performance.now();
    if (this.#tickets.length === 0) this.#since = at;
    this.#tickets.push(ticket);
    this.#times.push(at);
    if (now) this.#sendAlone();
    else this.#timer ??= setTimeout(() => this.#fire(), this.#idleMs);
  }

  /** The waiting ends, for an acquire to carry: Redis is then told of them by that acquire. */
  take(): string[] {
    if (this.#tickets.length === 0) return this.#tickets;
    const now = performance.now();
    const ends = this.#tickets.map((ticket, i) => {
      const ago = Math.floor(now - (this.#times[i] ?? now));
      return ago > 0 && !ticket.includes('@') ? `${ticket}@${ago}` : ticket;
    });
    this.#tickets = [];
    this.#times = [];
    return ends;
  }

  /**
   * Puts back ends whose carrier failed: they go with the next one, or alone. Their `@ms` stays as it
   * was taken, so the start counts from a little later than its answer: never too early.
   */
  restore(ends: readonly string[]): void {
    for (const end of ends) this.add(end);
  }

  /** Sends what waits, and resolves when Redis has it and every send alone under way (rejects if not). */
  async flush(): Promise<void> {
    this.#sendAlone();
    await Promise.all(this.#sending);
  }

  #fire(): void {
    this.#timer = undefined;
    if (this.#tickets.length === 0) return;
    const left = this.#since + this.#idleMs - performance.now();
    if (left > 0) this.#timer = setTimeout(() => this.#fire(), left);
    else this.#sendAlone();
  }

  #sendAlone(): void {
    const tickets = this.take();
    if (tickets.length === 0) return;
    const sent = this.#send(tickets);
    this.#sending.add(sent);
    // A lost end costs only time: the lease ends and the start stops counting by themselves.
    sent.then(
      () => this.#sending.delete(sent),
      () => this.#sending.delete(sent),
    );
  }
}

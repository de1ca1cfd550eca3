/**
 * The attempts of one partition that have ended and that Redis has not been told of yet. The next
 * acquire of the process carries them (one script per request when requests run one after another);
 * when none comes within `idleMs`, or the quota closes, they go alone. One timer serves every end: it is
 * armed once and re-armed only while ends are waiting.
 */
export class EndedAttempts {
  readonly #idleMs: number;
  readonly #send: (tickets: string[]) => Promise<unknown>;
  #tickets: string[] = [];
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
    if (this.#tickets.length === 0) this.#since = performance.now();
    this.#tickets.push(ticket);
    if (now) this.#sendAlone();
    else this.#timer ??= setTimeout(() => this.#fire(), this.#idleMs);
  }

  /** The waiting ends, for an acquire to carry: Redis is then told of them by that acquire. */
  take(): string[] {
    if (this.#tickets.length === 0) return this.#tickets;
    const tickets = this.#tickets;
    this.#tickets = [];
    return tickets;
  }

  /** Puts back ends whose carrier failed: they go with the next one, or alone. */
  restore(tickets: readonly string[]): void {
    for (const ticket of tickets) this.add(ticket);
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

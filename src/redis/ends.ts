/** How many ends whose send failed close() keeps: the newest, whose leases are likeliest still running. */
const maxUnsent = 10_000;

/**
 * The attempts of one partition that have ended and that Redis has not been told of yet. The next
 * acquire of the process carries them (one script per request when requests run one after another);
 * when none comes within `idleMs`, or the quota closes, they go alone. One timer serves every end: it is
 * armed once and re-armed only while ends are waiting.
 *
 * Each end goes as `ticket@ms`, how long ago its answer came back by this process's clock, so that
 * Redis counts the start from then rather than from when it heard of it: a duration, whatever the
 * clocks' skew, and never more than the true delay (the trip to Redis only adds to it).
 *
 * Ends whose send alone failed wait for close(), which sends them again: it resolves only once Redis
 * has every end, and a background retry would keep the process busy while Redis is away.
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
  /** Ends whose send alone failed and when each came, as `#tickets` and `#times` hold them: oldest first. */
  #unsentTickets: string[] = [];
  #unsentTimes: number[] = [];

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
    // A list of its own, even empty: ends added while the acquire is out must not join what it carries.
    if (this.#tickets.length === 0) return [];
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

  /**
   * Sends what waits and the ends whose send failed, and resolves when Redis has them and every send
   * alone under way (rejects if not; what fails stays for the next flush).
   */
  async flush(): Promise<void> {
    // Back among the waiting ends, so that each is told how long ago its answer came as of this send.
    this.#tickets = this.#unsentTickets.concat(this.#tickets);
    this.#times = this.#unsentTimes.concat(this.#times);
    this.#unsentTickets = [];
    this.#unsentTimes = [];
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
    if (this.#tickets.length === 0) return;
    const tickets = this.#tickets;
    const times = this.#times;
    const sent = this.#send(this.take());
    this.#sending.add(sent);
    sent.then(
      () => this.#sending.delete(sent),
      () => {
        this.#sending.delete(sent);
        this.#keep(tickets, times);
      },
    );
  }

  /**
   * Keeps ends whose send failed for the next flush. A lost end costs only time (the lease ends and the
   * start stops counting by themselves), so past {@link maxUnsent} the oldest go: a long outage must not
   * grow the list without bound.
   */
  #keep(tickets: readonly string[], times: readonly number[]): void {
    this.#unsentTickets = this.#unsentTickets.concat(tickets).slice(-maxUnsent);
    this.#unsentTimes = this.#unsentTimes.concat(times).slice(-maxUnsent);
  }
}

/**
 * One line of status on stderr, redrawn in place: items done of the total, requests sent, the rate
 * and the time left, `waiting for <host>…` while a request has had no answer for a while, and
 * `rate-limited: waiting 58 s`, counting down, while the client waits out a `Retry-After`. Only on a
 * terminal and without `--quiet`; a pipe or a log file never sees it. A rate-limit wait is also told
 * to those listening (`onPause`), drawn or not: a harvest saves its checkpoint before the sleep.
 */
import { countOf, grouped } from './counts.js';
import type { OutputStream } from './io.js';

/** How often the line is redrawn at most: more often only costs the walk time. */
const redrawMs = 100;

export interface ProgressCounts {
  done: number;
  total: number | undefined;
  requests: number;
}

export class Progress {
  readonly #stream: OutputStream | undefined;
  readonly #now: () => number;
  #unit = '';
  #started: number;
  /** What was done before this run (a resume): the rate counts this run's items only. */
  #base = 0;
  #counts: ProgressCounts | undefined;
  #waitingFor: string | undefined;
  #drawnAt = 0;
  /** The redraw of counts an update brought within `redrawMs` of the last: due when the interval ends. */
  #trailing: ReturnType<typeof setTimeout> | undefined;
  #shown = false;
  /** When the rate-limit wait ends (`now()` ms), while one is on. */
  #pausedUntil: number | undefined;
  #countdown: ReturnType<typeof setInterval> | undefined;
  readonly #onPause = new Set<() => void>();

  /** `stream` undefined: a progress that draws nothing. */
  constructor(stream: OutputStream | undefined, now: () => number = Date.now) {
    this.#stream = stream;
    this.#now = now;
    this.#started = now();
  }

  /** Whether progress goes to `stream`: a terminal, and not `--quiet`. */
  static for(stream: OutputStream, quiet: boolean, now: () => number = Date.now): Progress {
    return new Progress(stream.isTTY && !quiet ? stream : undefined, now);
  }

  /** Whether the line is drawn at all: what feeds only the line can be skipped when it is not. */
  get draws(): boolean {
    return this.#stream !== undefined;
  }

  /** A walk of `unit` starts, `base` of them done by an earlier run; the clock starts now. */
  begin(unit: string, base = 0): void {
    this.#unit = unit;
    this.#base = base;
    this.#started = this.#now();
  }

  /** How many of the walk's items an earlier run did, once the walk can tell; the clock runs on. */
  rebase(base: number): void {
    this.#base = base;
  }

  update(counts: ProgressCounts, force = false): void {
    this.#counts = counts;
    if (this.#stream === undefined) return;
    const now = this.#now();
    const since = now - this.#drawnAt;
    // A clock set back (since < 0) would hold the line until it caught up: it is drawn at once.
    if (!force && since >= 0 && since < redrawMs) {
      // Drawn when the interval ends, whether or not another update comes by then: a walk the quota
      // holds between pages must not leave numbers it has passed on the line.
      this.#trailing ??= setTimeout(() => this.update(this.#counts!, true), redrawMs - since);
      this.#trailing.unref?.();
      return;
    }
    clearTimeout(this.#trailing);
    this.#trailing = undefined;
    this.#drawnAt = now;
    this.#draw();
  }

  /** Shows (a host) or takes away (undefined) `waiting for <host>…` on the line. */
  waiting(host: string | undefined): void {
    if (this.#waitingFor === host) return;
    this.#waitingFor = host;
    if (this.#stream === undefined) return;
    if (host === undefined && this.#counts === undefined) this.clear();
    else this.#draw();
  }

  /**
   * The client waits `seconds` for a rate limit (a 429's `Retry-After`) before it tries again: told to
   * the listeners at once, and shown as `rate-limited: waiting N s`, redrawn each second down to 0.
   */
  rateLimited(seconds: number): void {
    for (const listener of this.#onPause) listener();
    if (this.#stream === undefined) return;
    this.#pausedUntil = this.#now() + seconds * 1000;
    clearInterval(this.#countdown);
    this.#countdown = setInterval(() => this.#tick(), 1000);
    // A countdown never holds the process open: the command's own work does, or it has ended.
    this.#countdown.unref?.();
    this.#draw();
  }

  /** Calls `listener` at each rate-limit wait, before the client sleeps; returns its removal. */
  onPause(listener: () => void): () => void {
    this.#onPause.add(listener);
    return () => this.#onPause.delete(listener);
  }

  #tick(): void {
    if (this.#pausedUntil !== undefined && this.#now() >= this.#pausedUntil) this.#endPause();
    this.#draw();
  }

  #endPause(): void {
    this.#pausedUntil = undefined;
    clearInterval(this.#countdown);
    this.#countdown = undefined;
  }

  /** Erases the line, so what follows starts on a clean one. */
  clear(): void {
    this.#endPause();
    clearTimeout(this.#trailing);
    this.#trailing = undefined;
    if (this.#stream === undefined || !this.#shown) return;
    this.#stream.write('\r\x1b[2K');
    this.#shown = false;
  }

  #draw(): void {
    const stream = this.#stream;
    if (stream === undefined) return;
    const now = this.#now();
    // A clock set back: the rate counts from here, what is done so far as done before.
    if (now < this.#started) [this.#started, this.#base] = [now, this.#counts?.done ?? this.#base];
    const seconds = (now - this.#started) / 1000;
    const parts = this.#counts === undefined ? [] : [describe(this.#counts, this.#unit, seconds, this.#base)];
    if (this.#pausedUntil !== undefined) {
      const left = Math.max(0, Math.ceil((this.#pausedUntil - this.#now()) / 1000));
      parts.push(`rate-limited: waiting ${left} s`);
    } else if (this.#waitingFor !== undefined) parts.push(`waiting for ${this.#waitingFor}…`);
    const line = parts.join(' · ');
    // 0 columns: a terminal that reports no size.
    const width = stream.columns || 80;
    stream.write(`\r\x1b[2K${line.length >= width ? line.slice(0, width - 1) : line}`);
    this.#shown = true;
  }
}

/**
 * The progress line, e.g. `1,200 of 30,000 papers · 13 requests · 640/s · 45 s left`; the rate and the
 * time left count the items of this run (`done - base`) over its `seconds`.
 */
export function describe(counts: ProgressCounts, unit: string, seconds: number, base = 0): string {
  const { done, total, requests } = counts;
  const parts = [countOf(done, total, unit)];
  parts.push(`${grouped(requests)} request${requests === 1 ? '' : 's'}`);
  const rate = seconds > 0 ? (done - base) / seconds : 0;
  // Two figures below ten a second, so that a slow walk's rate is no `0/s`.
  if (rate > 0) parts.push(`${rate < 9.95 ? Number(rate.toPrecision(2)) : grouped(Math.round(rate))}/s`);
  if (rate > 0 && total !== undefined && total > done) parts.push(`${clock((total - done) / rate)} left`);
  return parts.join(' · ');
}

/** A duration as people read it: `0.8 s`, `45 s`, `3 min 5 s`, `2 h 10 min`. */
export function clock(seconds: number): string {
  // Tenths below ten seconds, rounded before the test: 9.96 s is `10 s`, not `10.0 s`.
  const tenths = Math.round(Math.max(seconds, 0) * 10) / 10;
  if (tenths < 10) return `${tenths.toFixed(1)} s`;
  // Rounded up as a whole before it is split, so that no part shows 60 (`1 min 60 s`).
  const whole = Math.ceil(seconds);
  if (whole < 60) return `${whole} s`;
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${whole % 60} s`;
  const minutes = Math.ceil(whole / 60);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

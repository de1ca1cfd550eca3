import { type MockLimits, type MockWindowLimit, resolveMockLimits } from './options.js';
import { HttpError } from './responses.js';

export type { MockLimits, MockWindowLimit } from './options.js';

const minute = 60_000;
const day = 86_400_000;

interface Window {
  start: number;
  count: number;
}

interface Counts {
  minute: Window;
  day: Window;
  custom: Window;
}

/** A limit that blocks a request: why, and how long until it lets it through. */
interface Block {
  reason: string;
  waitMs: number;
}

/**
 * Counts accepted requests per key. A request over any limit is refused with 429 and `Retry-After`
 * (whole seconds, at least 1, until every window that blocks it has ended) and is not counted.
 */
export class RateLimiter {
  readonly #perMinute: number;
  readonly #perDay: number;
  readonly #perWindow: MockWindowLimit | undefined;
  readonly #now: () => number;
  readonly #counts = new Map<string, Counts>();

  constructor(limits: MockLimits | undefined, now: () => number) {
    const { perMinute, perDay, perWindow } = resolveMockLimits(limits);
    this.#perMinute = perMinute;
    this.#perDay = perDay;
    this.#perWindow = perWindow;
    this.#now = now;
  }

  /** Counts one request for `key`, or throws the 429. */
  take(key: string): void {
    const perMinute = this.#perMinute;
    const perDay = this.#perDay;
    const perWindow = this.#perWindow;
    if (perMinute === Infinity && perDay === Infinity && perWindow === undefined) return;
    const now = this.#now();
    let counts = this.#counts.get(key);
    if (counts === undefined) {
      counts = {
        minute: { start: 0, count: 0 },
        day: { start: 0, count: 0 },
        custom: { start: 0, count: 0 },
      };
      this.#counts.set(key, counts);
    }
    roll(counts.minute, now, minute);
    roll(counts.day, now, day);
    const windowOpen = perWindow !== undefined && isOpen(counts.custom, now, perWindow.windowMs);
    const blocks: Block[] = [];
    if (counts.day.count >= perDay) {
      blocks.push({ reason: `Daily request limit of ${perDay}`, waitMs: counts.day.start + day - now });
    }
    if (counts.minute.count >= perMinute) {
      blocks.push({
        reason: `Per-minute request limit of ${perMinute}`,
        waitMs: counts.minute.start + minute - now,
      });
    }
    if (perWindow !== undefined && (windowOpen ? counts.custom.count : 0) >= perWindow.requests) {
      // A limit of 0 never opens a window: refused requests are not counted, so wait one window.
      const waitMs = windowOpen ? counts.custom.start + perWindow.windowMs - now : perWindow.windowMs;
      blocks.push({ reason: `Limit of ${perWindow.requests} requests per ${perWindow.windowMs} ms`, waitMs });
    }
    if (blocks.length > 0) throw tooMany(blocks);
    counts.minute.count++;
    counts.day.count++;
    if (perWindow !== undefined) {
      if (windowOpen) counts.custom.count++;
      else counts.custom = { start: now, count: 1 };
    }
  }

  /** Forgets every count. */
  reset(): void {
    this.#counts.clear();
  }
}

/** Fixed windows aligned to multiples of `size` since the epoch (the clock minute, the UTC day). */
function roll(window: Window, now: number, size: number): void {
  const start = Math.floor(now / size) * size;
  if (window.start !== start) {
    window.start = start;
    window.count = 0;
  }
}

/** Whether a window opened by a request is still running; a clock set back before it closes it. */
function isOpen(window: Window, now: number, size: number): boolean {
  return window.count > 0 && now >= window.start && now < window.start + size;
}

/** The 429 for the blocking limit that ends last: waiting less would only meet another 429. */
function tooMany(blocks: readonly Block[]): HttpError {
  const longest = blocks.reduce((a, b) => (b.waitMs > a.waitMs ? b : a));
  const seconds = Math.max(1, Math.ceil(longest.waitMs / 1000));
  return new HttpError(429, `${longest.reason} exceeded; retry in ${seconds} s`, {
    'retry-after': String(seconds),
  });
}

import { HttpError } from './responses.js';

/**
 * Request limits per API key (API §8 leaves the numbers unstated). Both are off unless set.
 *
 * @example
 * ```ts
 * let now = Date.parse('2025-03-01T12:00:00Z');
 * const api = createMockApi({ limits: { perMinute: 2 }, now: () => now });
 * // the third request within the minute gives 429 with Retry-After; then `now += 60_000` clears it
 * ```
 */
export interface MockLimits {
  /** Requests per key per clock minute (fixed windows aligned to the minute). @default Infinity */
  readonly perMinute?: number;
  /** Requests per key per UTC day. @default Infinity */
  readonly perDay?: number;
}

const minute = 60_000;
const day = 86_400_000;

interface Window {
  start: number;
  count: number;
}

/**
 * Counts accepted requests per key in fixed windows. A request over a limit is refused with 429 and
 * `Retry-After` (whole seconds until the window that blocks it ends) and is not counted.
 */
export class RateLimiter {
  readonly #limits: Required<MockLimits>;
  readonly #now: () => number;
  readonly #windows = new Map<string, { minute: Window; day: Window }>();

  constructor(limits: MockLimits | undefined, now: () => number) {
    this.#limits = { perMinute: Infinity, perDay: Infinity, ...limits };
    for (const [name, value] of Object.entries(this.#limits)) {
      if (!(value === Infinity || (Number.isSafeInteger(value) && value >= 0))) {
        throw new RangeError(
          `limits.${name} must be a non-negative integer or Infinity, got ${String(value)}`,
        );
      }
    }
    this.#now = now;
  }

  /** Counts one request for `key`, or throws the 429. */
  take(key: string): void {
    const { perMinute, perDay } = this.#limits;
    if (perMinute === Infinity && perDay === Infinity) return;
    const now = this.#now();
    const entry = this.#windows.get(key) ?? { minute: { start: 0, count: 0 }, day: { start: 0, count: 0 } };
    this.#windows.set(key, entry);
    roll(entry.minute, now, minute);
    roll(entry.day, now, day);
    if (entry.day.count >= perDay)
      throw tooMany(`Daily request limit of ${perDay} exceeded`, entry.day.start + day - now);
    if (entry.minute.count >= perMinute) {
      throw tooMany(`Per-minute request limit of ${perMinute} exceeded`, entry.minute.start + minute - now);
    }
    entry.minute.count++;
    entry.day.count++;
  }

  /** Forgets every count. */
  reset(): void {
    this.#windows.clear();
  }
}

function roll(window: Window, now: number, size: number): void {
  const start = Math.floor(now / size) * size;
  if (window.start !== start) {
    window.start = start;
    window.count = 0;
  }
}

function tooMany(reason: string, waitMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new HttpError(429, `${reason}; retry in ${seconds} s`, { 'retry-after': String(seconds) });
}

import { ConfigurationError } from '../core/errors.js';
import {
  checkFraction,
  checkInteger,
  checkNames,
  checkObject,
  type OptionNames,
  type Resolved,
} from '../core/options/checks.js';
import type { MockDatasetSizes } from './dataset-types.js';

/*
 * The mock's options that its parts check on their own (the dataset's seed and sizes, the limits, the
 * faults), with the public types of the limits and faults. Every check reads its object's fields as
 * unknown values, since callers in plain JavaScript may pass anything; the bounds (the largest delay
 * and sizes) are passed in by the part that owns them.
 */

export const maxSafe = Number.MAX_SAFE_INTEGER;

/** An options object as read here: each field is checked before it is used. */
export type Fields = Readonly<Record<string, unknown>>;

/**
 * A limit over a window of any length, for tests that must see a 429 and its pause in seconds.
 *
 * @example
 * ```ts
 * createMockApi({ limits: { perWindow: { requests: 5, windowMs: 2_000 } } });
 * // the sixth request within 2 s of the first gives 429 with Retry-After: 2
 * ```
 */
export interface MockWindowLimit {
  /** Requests per key accepted in one window (0 refuses every request). */
  readonly requests: number;
  /** Length of the window in ms: a positive integer. */
  readonly windowMs: number;
}

/**
 * Request limits per API key (API §8 leaves the numbers unstated). All are off unless set, and all
 * set apply together: a request must fit in each.
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
  readonly perMinute?: number | undefined;
  /** Requests per key per UTC day. @default Infinity */
  readonly perDay?: number | undefined;
  /**
   * Requests per key per window of `windowMs`. A window opens at the first request counted after the
   * previous one closed (not on a clock boundary), so a burst that starts on a fresh window always
   * meets the limit at the same request, whatever the wall clock says. @default no such limit
   */
  readonly perWindow?: MockWindowLimit | undefined;
}

/** The limits once checked: `Infinity` where a count was left out, no window unless one was given. */
export type ResolvedMockLimits = Resolved<Omit<MockLimits, 'perWindow'>> & Pick<MockLimits, 'perWindow'>;

/**
 * Random faults for every request, reproducible from `seed`. All off by default.
 *
 * @example
 * ```ts
 * createMockApi({ faults: { latencyMs: [5, 50], errorRate: 0.1, resetRate: 0.05, seed: 7 } });
 * ```
 */
export interface MockFaultOptions {
  /** Delay of every answer, in ms (at most {@link MOCK_MAX_DELAY_MS}): a fixed value or a `[min, max]` range. @default 0 */
  readonly latencyMs?: number | readonly [number, number] | undefined;
  /** Share of requests answered with `errorStatus`. @default 0 */
  readonly errorRate?: number | undefined;
  /** Status of the random errors. @default 500 */
  readonly errorStatus?: number | undefined;
  /** Share of requests whose connection is dropped. @default 0 */
  readonly resetRate?: number | undefined;
  /** Share of requests whose body is truncated JSON. @default 0 */
  readonly malformedRate?: number | undefined;
  /** Seed of the random draws, so a failing run can be replayed. @default 1 */
  readonly seed?: number | undefined;
}

/** The random faults once checked: all off by default, the latency as a `[min, max]` range. */
export type ResolvedMockFaultOptions = Resolved<Omit<MockFaultOptions, 'latencyMs'>> & {
  readonly latencyMs: readonly [number, number];
};

/** The dataset's record counts once checked, by kind. */
export type ResolvedMockSizes = Resolved<MockDatasetSizes>;

/** The seed of a dataset or of the random faults: any safe integer. */
export function checkMockSeed(option: 'seed' | 'faults.seed', seed: unknown): number | undefined {
  if (seed === undefined || Number.isSafeInteger(seed)) return seed as number | undefined;
  throw new ConfigurationError(option, `\`${option}\` must be a safe integer (Number.isSafeInteger)`);
}

/** Applies the default sizes and refuses sizes past `max` or that the generator cannot honour. */
export function resolveMockSizes(
  sizes: unknown,
  defaults: ResolvedMockSizes,
  max: ResolvedMockSizes,
): ResolvedMockSizes {
  const given = checkObject<Fields>('sizes', sizes) ?? {};
  const size = (name: keyof MockDatasetSizes) =>
    checkInteger(`sizes.${name}`, given[name], 0, max[name]) ?? defaults[name];
  const resolved = {
    journals: size('journals'),
    papers: size('papers'),
    authors: size('authors'),
    subjects: size('subjects'),
    countries: size('countries'),
  };
  // Every size has its value here, its default at least: the names to refuse any other.
  checkNames('`sizes`', given, Object.keys(resolved), 'sizes.');
  const { journals, papers, authors, subjects, countries } = resolved;
  if ((journals > 0 || authors > 0) && (subjects === 0 || countries === 0)) {
    const kind = journals > 0 ? 'journals' : 'authors';
    throw new ConfigurationError('sizes', `${kind} need at least one subject and one country`);
  }
  if (papers > 0 && (journals === 0 || authors === 0)) {
    throw new ConfigurationError('sizes', 'papers need at least one journal and one author');
  }
  return resolved;
}

const limitNames: OptionNames<MockLimits> = { perMinute: true, perDay: true, perWindow: true };
const windowNames: OptionNames<MockWindowLimit> = { requests: true, windowMs: true };

/** The mock's request limits per key; `Infinity` (the default) is no limit. */
export function resolveMockLimits(limits: unknown): ResolvedMockLimits {
  const given = checkObject<Fields>('limits', limits) ?? {};
  const count = (option: string, value: unknown) =>
    value === Infinity ? Infinity : (checkInteger(option, value, 0, maxSafe) ?? Infinity);
  checkNames('`limits`', given, Object.keys(limitNames), 'limits.');
  const window = checkObject<Fields>('limits.perWindow', given.perWindow);
  if (window) checkNames('`limits.perWindow`', window, Object.keys(windowNames), 'limits.perWindow.');
  return {
    perMinute: count('limits.perMinute', given.perMinute),
    perDay: count('limits.perDay', given.perDay),
    // A window's two fields are required: one left out is refused like any other non-integer.
    perWindow: window && {
      requests: checkInteger('limits.perWindow.requests', window.requests ?? null, 0, maxSafe) as number,
      windowMs: checkInteger('limits.perWindow.windowMs', window.windowMs ?? null, 1, maxSafe) as number,
    },
  };
}

/** Checks the random faults; no delay may pass `maxDelayMs`, and the rates together at most 1. */
export function resolveMockFaults(options: unknown, maxDelayMs: number): ResolvedMockFaultOptions {
  const given = checkObject<Fields>('faults', options) ?? {};
  const resolved = {
    latencyMs: checkLatency(given.latencyMs, maxDelayMs),
    errorRate: checkFraction('faults.errorRate', given.errorRate) ?? 0,
    errorStatus: checkStatus('faults.errorStatus', given.errorStatus) ?? 500,
    resetRate: checkFraction('faults.resetRate', given.resetRate) ?? 0,
    malformedRate: checkFraction('faults.malformedRate', given.malformedRate) ?? 0,
    seed: checkMockSeed('faults.seed', given.seed) ?? 1,
  };
  checkNames('`faults`', given, Object.keys(resolved), 'faults.');
  // One draw decides among them, so their shares must fit in one.
  if (resolved.errorRate + resolved.resetRate + resolved.malformedRate > 1) {
    throw new ConfigurationError('faults', 'faults: errorRate + resetRate + malformedRate must not exceed 1');
  }
  return resolved;
}

/** `faults.latencyMs`: a delay, or a `[min, max]` range to draw from. */
function checkLatency(value: unknown, maxDelayMs: number): readonly [number, number] {
  const option = 'faults.latencyMs';
  if (value === undefined) return [0, 0];
  if (!Array.isArray(value)) {
    const ms = checkInteger(option, value, 0, maxDelayMs) as number;
    return [ms, ms];
  }
  const [min = 0, max = 0] = value.map((ms: unknown) => checkInteger(option, ms ?? null, 0, maxDelayMs));
  if (value.length !== 2 || min > max) {
    throw new ConfigurationError(
      option,
      `\`${option}\` must be a delay or a [min, max] range with min <= max`,
    );
  }
  return [min, max];
}

/** A status the mock can answer with. */
export function checkStatus(option: string, value: unknown): number | undefined {
  return checkInteger(option, value, 200, 599);
}

/** A list option: an array, or left out (none). */
export function checkList(option: string, value: unknown): readonly unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ConfigurationError(option, `\`${option}\` must be an array`);
  return value;
}

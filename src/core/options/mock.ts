import { ConfigurationError } from '../errors.js';
import {
  checkBoolean,
  checkDuration,
  checkFraction,
  checkFunction,
  checkHttpUrl,
  checkInteger,
  checkObject,
} from './checks.js';

/*
 * The mock's options (`createMockApi`, `startMockServer`, a queued fault, a webhook URL), checked and
 * resolved here like every other entry's. The shapes are plain: core never imports the testing entry,
 * whose public types hold the same fields; its bounds (the largest delay and sizes) are passed in.
 */

const maxSafe = Number.MAX_SAFE_INTEGER;

/** An options object as read here: the public types are the testing entry's, and each field is checked. */
type Fields = Readonly<Record<string, unknown>>;

/** The mock's own options once checked, with their defaults applied. */
export interface ResolvedMockApiSettings {
  readonly baseUrl: string | undefined;
  readonly now: () => number;
  readonly control: boolean;
  readonly webhooks: {
    readonly urls: readonly string[];
    readonly fetch: typeof globalThis.fetch | undefined;
    readonly timeoutMs: number;
  };
}

/** Checks the options of `createMockApi()` that are neither the dataset, the limits nor the faults. */
export function resolveMockApiOptions(options: unknown): ResolvedMockApiSettings {
  const given = checkObject<Fields>('options', options) ?? {};
  checkObject('keys', given.keys);
  const webhooks = checkObject<Fields>('webhooks', given.webhooks) ?? {};
  return {
    baseUrl: checkHttpUrl('baseUrl', given.baseUrl) === undefined ? undefined : (given.baseUrl as string),
    now: checkFunction<() => number>('now', given.now) ?? Date.now,
    control: checkBoolean('control', given.control) ?? false,
    webhooks: {
      urls: checkList('webhooks.urls', webhooks.urls).map(checkMockWebhookUrl),
      fetch: checkFunction<typeof globalThis.fetch>('webhooks.fetch', webhooks.fetch),
      timeoutMs: checkDuration('webhooks.timeoutMs', webhooks.timeoutMs) ?? 5000,
    },
  };
}

/** A webhook URL, given at creation or subscribed later: absolute http(s). */
export function checkMockWebhookUrl(url: unknown): string {
  if (typeof url !== 'string' || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new ConfigurationError(
      'webhooks.urls',
      // The URL is not quoted: a receiver's URL often carries its secret token.
      'Webhook URL must be an absolute http(s) URL',
    );
  }
  return url;
}

/** The server's `port` and `controlOrigins`: each origin as a browser sends it, `'*'` or a URL's origin. */
export function resolveMockServerOptions(options: { port?: unknown; controlOrigins?: unknown }): {
  port: number;
  controlOrigins: string[];
} {
  return {
    port: checkInteger('port', options.port, 0, 65_535) ?? 0,
    controlOrigins: checkList('controlOrigins', options.controlOrigins).map((entry) => {
      if (entry === '*') return entry;
      const parsed = typeof entry === 'string' && URL.canParse(entry) ? new URL(entry) : undefined;
      if (parsed === undefined || !/^https?:$/.test(parsed.protocol)) {
        throw new ConfigurationError(
          'controlOrigins',
          `controlOrigins: ${JSON.stringify(entry)} is not an origin such as http://localhost:5173`,
        );
      }
      return parsed.origin;
    }),
  };
}

/** The seed of a dataset or of the random faults: any safe integer. */
export function checkMockSeed(option: 'seed' | 'faults.seed', seed: unknown): number | undefined {
  if (seed === undefined || Number.isSafeInteger(seed)) return seed as number | undefined;
  throw new ConfigurationError(option, `\`${option}\` must be a safe integer (Number.isSafeInteger)`);
}

/** The dataset's record counts, by kind. */
export type MockSizes = {
  readonly [K in 'journals' | 'papers' | 'authors' | 'subjects' | 'countries']: number;
};

/** Applies the default sizes and refuses sizes past `max` or that the generator cannot honour. */
export function resolveMockSizes(sizes: unknown, defaults: MockSizes, max: MockSizes): MockSizes {
  const given = checkObject<Fields>('sizes', sizes) ?? {};
  const size = (name: keyof MockSizes) =>
    checkInteger(`sizes.${name}`, given[name], 0, max[name]) ?? defaults[name];
  const resolved = {
    journals: size('journals'),
    papers: size('papers'),
    authors: size('authors'),
    subjects: size('subjects'),
    countries: size('countries'),
  };
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

/** A limit of requests over a window of `windowMs`. */
export interface MockWindowSettings {
  readonly requests: number;
  readonly windowMs: number;
}

/** The mock's request limits per key; `Infinity` (the default) is no limit. */
export function resolveMockLimits(limits: unknown): {
  perMinute: number;
  perDay: number;
  perWindow: MockWindowSettings | undefined;
} {
  const given = checkObject<Fields>('limits', limits) ?? {};
  const count = (option: string, value: unknown) =>
    value === Infinity ? Infinity : (checkInteger(option, value, 0, maxSafe) ?? Infinity);
  const window = checkObject<Fields>('limits.perWindow', given.perWindow);
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

/** The random faults (`createMockApi({ faults })`, `faults.configure()`) once checked: all off by default. */
export interface ResolvedMockFaultSettings {
  readonly latencyMs: readonly [number, number];
  readonly errorRate: number;
  readonly errorStatus: number;
  readonly resetRate: number;
  readonly malformedRate: number;
  readonly seed: number;
}

/** Checks the random faults; no delay may pass `maxDelayMs`, and the rates together at most 1. */
export function resolveMockFaults(options: unknown, maxDelayMs: number): ResolvedMockFaultSettings {
  const given = checkObject<Fields>('faults', options) ?? {};
  const resolved = {
    latencyMs: checkLatency(given.latencyMs, maxDelayMs),
    errorRate: checkFraction('faults.errorRate', given.errorRate) ?? 0,
    errorStatus: checkStatus('faults.errorStatus', given.errorStatus) ?? 500,
    resetRate: checkFraction('faults.resetRate', given.resetRate) ?? 0,
    malformedRate: checkFraction('faults.malformedRate', given.malformedRate) ?? 0,
    seed: checkMockSeed('faults.seed', given.seed) ?? 1,
  };
  // One draw decides among them, so their shares must fit in one.
  if (resolved.errorRate + resolved.resetRate + resolved.malformedRate > 1) {
    throw new ConfigurationError('faults', 'faults: errorRate + resetRate + malformedRate must not exceed 1');
  }
  return resolved;
}

/** Checks one fault queued with `faults.next()`: its status, its count and its delay. */
export function checkMockFault<Fault>(fault: Fault, maxDelayMs: number): Fault {
  // A fault is required: `null` or nothing is refused as not an object.
  const { status, times, delayMs } = checkObject<Fields>('fault', fault ?? null) ?? {};
  checkStatus('fault.status', status);
  checkInteger('fault.times', times, 1, maxSafe);
  checkInteger('fault.delayMs', delayMs, 0, maxDelayMs);
  return fault;
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
function checkStatus(option: string, value: unknown): number | undefined {
  return checkInteger(option, value, 200, 599);
}

/** A list option: an array, or left out (none). */
function checkList(option: string, value: unknown): readonly unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ConfigurationError(option, `\`${option}\` must be an array`);
  return value;
}

import { describeValue, quote } from '../core/describe-value.js';
import { ConfigurationError } from '../core/errors.js';
import {
  checkBoolean,
  checkDuration,
  checkFunction,
  checkHttpUrl,
  checkInteger,
  checkNames,
  checkObject,
  keyForm,
  type OptionNames,
  type Resolved,
} from '../core/options/checks.js';
import type { MockPlan } from './constants.js';
import type { MockApi, MockApiOptions, MockServerOptions } from './mock-api-types.js';
import { checkList, type Fields } from './options.js';
import { checkMockWebhookUrl, httpOrigin } from './urls.js';
import type { MockWebhookOptions } from './webhooks.js';

/*
 * The options of `createMockApi()` that are neither the dataset, the limits nor the faults (each
 * checked by its own part), and those `startMockServer()` adds.
 */

/** The mock's own options once checked, with their defaults applied. */
export type ResolvedMockApiOptions = Resolved<Pick<MockApiOptions, 'now' | 'control'>> &
  Pick<MockApiOptions, 'baseUrl'> & {
    readonly webhooks: Resolved<Omit<MockWebhookOptions, 'fetch'>> & Pick<MockWebhookOptions, 'fetch'>;
  };

const optionNames: OptionNames<MockApiOptions> = {
  seed: true,
  sizes: true,
  baseUrl: true,
  keys: true,
  limits: true,
  faults: true,
  webhooks: true,
  now: true,
  control: true,
};
const webhookOptionNames: OptionNames<MockWebhookOptions> = { urls: true, fetch: true, timeoutMs: true };

/** The names of `createMockApi()`'s options, which `startMockServer()` and `mockHandlers()` take too. */
export const mockApiOptionNames: readonly string[] = Object.keys(optionNames);

/**
 * Checks the names of `createMockApi()`'s options, and those of its options that are neither the
 * dataset, the limits nor the faults (each checked by its own part). `caller` names the function the
 * user called in the refusal of an unknown name.
 */
export function resolveMockApiOptions(options: unknown, caller = 'createMockApi()'): ResolvedMockApiOptions {
  const given = checkObject<Fields>('options', options) ?? {};
  checkNames(caller, given, mockApiOptionNames);
  checkMockKeys(given.keys);
  const webhooks = checkObject<Fields>('webhooks', given.webhooks) ?? {};
  checkNames('`webhooks`', webhooks, Object.keys(webhookOptionNames), 'webhooks.');
  return {
    baseUrl: checkHttpUrl('baseUrl', given.baseUrl) === undefined ? undefined : (given.baseUrl as string),
    now: checkedClock(checkFunction<() => number>('now', given.now)) ?? Date.now,
    control: checkBoolean('control', given.control) ?? false,
    webhooks: {
      urls: checkList('webhooks.urls', webhooks.urls).map(checkMockWebhookUrl),
      fetch: checkFunction<typeof globalThis.fetch>('webhooks.fetch', webhooks.fetch),
      timeoutMs: checkDuration('webhooks.timeoutMs', webhooks.timeoutMs) ?? 5000,
    },
  };
}

/**
 * The `now` option, checked at each reading: a clock that gives no number of milliseconds (a date
 * string, `undefined` from a missing `return`) would make every rate-limit window new, and no limit
 * would ever be reached. A request that reads it answers 500 with the message; `updateScore` rejects.
 */
function checkedClock(clock: (() => number) | undefined): (() => number) | undefined {
  if (clock === undefined) return undefined;
  return () => {
    const ms: unknown = clock();
    if (typeof ms !== 'number' || !Number.isFinite(ms)) {
      throw new ConfigurationError(
        'now',
        `now() must return milliseconds since the epoch, got ${describeValue(ms)}`,
      );
    }
    checkClockYear(ms);
    return ms;
  };
}

/** The first and the last millisecond whose time an API timestamp can write (`YYYY-…`, API §6). */
const firstWritable = Date.parse('0000-01-01T00:00:00Z');
const lastWritable = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * A time outside the years 0000–9999 has no `YYYY-MM-DDThh:mm:ssZ` form, so the mock could date no
 * event or history entry by it (such a clock most often counts microseconds).
 */
function checkClockYear(ms: number): void {
  if (ms >= firstWritable && ms <= lastWritable) return;
  const date = new Date(ms);
  const shown = Number.isNaN(date.getTime()) ? '' : ` (${date.toISOString()})`;
  throw new ConfigurationError(
    'now',
    `now() must return a time from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z (an API timestamp has a four-digit year), got ${ms}${shown}`,
  );
}

/** Every plan a key can be on (see {@link MockPlan}). */
const mockPlans: readonly MockPlan[] = ['free', 'basic', 'professional', 'elite'];

/**
 * `keys`: a plain object of key → plan. A plan the mock does not know would be answered 403 as a plan
 * without API access, and a `Map` (as `api.keys` is) would be read as no keys at all.
 */
function checkMockKeys(keys: unknown): void {
  const given = checkObject<Fields>('keys', keys);
  if (given === undefined) return;
  const prototype = Object.getPrototypeOf(given);
  if (prototype !== Object.prototype && prototype !== null) {
    throw new ConfigurationError(
      'keys',
      '`keys` must be a plain object of key → plan, such as { k: "elite" }',
    );
  }
  // Named without the key, a credential even in a mock.
  if (Object.values(given).some((plan) => !mockPlans.includes(plan as MockPlan))) {
    throw new ConfigurationError('keys', `every plan in \`keys\` must be one of ${mockPlans.join(', ')}`);
  }
  // A key no `Authorization: Bearer` header can carry would be answered 401 on every request.
  if (Object.keys(given).some((key) => !keyForm.test(key))) {
    throw new ConfigurationError(
      'keys',
      'every key in `keys` must be visible ASCII characters with no spaces',
    );
  }
}

const serverOptionNames: OptionNames<Omit<MockServerOptions, keyof MockApiOptions>> = {
  port: true,
  host: true,
  api: true,
  controlOrigins: true,
};

/** The server's own options once checked (`api` is the mock itself, checked for its shape only). */
export type ResolvedMockServerOptions = Resolved<Pick<MockServerOptions, 'port' | 'host' | 'controlOrigins'>>;

/**
 * The server's `port`, `host`, `api` and `controlOrigins`: each origin as a browser sends it, `'*'` or
 * a URL's origin. A `host` that is not a name would reach Node's `listen()` as none, which binds every
 * interface; one with a control character or a space is no name or address either (Node throws a bare
 * TypeError for a null byte, and a lookup fails for the others).
 */
export function resolveMockServerOptions(value: unknown): ResolvedMockServerOptions {
  // The `= {}` default of startMockServer() covers `undefined` only.
  const options = checkObject<Fields>('options', value) ?? {};
  const { host = '127.0.0.1', api } = options;
  // A mock made already takes none of createMockApi()'s options: they would go unused.
  const names = Object.keys(serverOptionNames);
  if (api !== undefined) checkNames('startMockServer() given `api`', options, names);
  else checkNames('startMockServer()', options, [...names, ...mockApiOptionNames]);
  if (typeof host !== 'string' || host === '' || /[\s\p{Cc}]/u.test(host)) {
    throw new ConfigurationError('host', '`host` must be an interface name or address, such as 127.0.0.1');
  }
  const given = api as Partial<MockApi> | null | undefined;
  if (api !== undefined && (typeof given?.handle !== 'function' || typeof given.basePath !== 'string')) {
    throw new ConfigurationError('api', '`api` must be a mock made by createMockApi()');
  }
  return {
    port: checkInteger('port', options.port, 0, 65_535) ?? 0,
    host,
    controlOrigins: checkList('controlOrigins', options.controlOrigins).map(checkControlOrigin),
  };
}

/** A `controlOrigins` entry: `'*'`, or a URL whose origin is the one a browser sends. */
function checkControlOrigin(entry: unknown): string {
  const origin = entry === '*' ? entry : httpOrigin(entry);
  if (origin === undefined) {
    const given = typeof entry === 'string' ? quote(entry) : describeValue(entry);
    throw new ConfigurationError(
      'controlOrigins',
      `controlOrigins: ${given} is not an origin such as http://localhost:5173`,
    );
  }
  return origin;
}

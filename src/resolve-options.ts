import { checkCacheOption, type ResolvedCacheOptions } from './cache/options.js';
import type { ClientOptions } from './client-options.js';
import { inBrowser } from './core/browser.js';
import { ConfigurationError } from './core/errors.js';
import { isLogLevel, type Logger, type LogLevel, logLevels } from './core/logger.js';
import {
  checkBoolean,
  checkFunction,
  checkHttpUrl,
  checkNames,
  checkObject,
  keyForm,
} from './core/options/checks.js';
import { checkHooks, type ResolvedClientOptions } from './core/options/client.js';
import { type Environment, readVariable } from './core/options/environment.js';
import { resolveClientQuota } from './core/options/quota.js';
import {
  checkHeaders,
  checkMaxResponseBytes,
  checkMaxRetries,
  checkTimeout,
  defaultMaxResponseBytes,
  sentCredential,
} from './core/options/request.js';

/** Every option of the client: a name it lacks (misspelt, or another SDK's) is refused, not ignored. */
const optionNames = (
  'apiKey env baseUrl timeout maxRetries fetch headers maxConcurrency maxRequestsPerMinute pacing ' +
  'quota hooks dangerouslyAllowBrowser logLevel logger cache maxResponseBytes telemetry'
).split(' ');

/** The client's options once checked: core's, and the cache's beside them. */
export interface ResolvedMetricClientOptions extends ResolvedClientOptions {
  readonly cache: ResolvedCacheOptions | undefined;
}

/**
 * Every option of `new MetricClient()`, checked, with its default or environment variable applied.
 * A new option is read here and added to {@link ResolvedClientOptions} (or, the cache's, to
 * `ResolvedCacheOptions`).
 */
export function resolveClientOptions(options: ClientOptions = {}): ResolvedMetricClientOptions {
  checkObject('options', options);
  checkNames('new MetricClient()', options, optionNames);
  // The variables come from the environment handed in, else from the process's: read once, here.
  const env = checkObject<Environment>('env', options.env);
  const variable = (name: string) => readVariable(env, name);
  const allowBrowser = checkBoolean('dangerouslyAllowBrowser', options.dangerouslyAllowBrowser);
  const given = checkFunction<typeof fetch>('fetch', options.fetch);
  if (!given && typeof fetch !== 'function') {
    throw new ConfigurationError('fetch', 'No fetch available: pass `fetch` to new MetricClient()');
  }
  const apiKey = resolveApiKey(options.apiKey, variable('METRIC_API_KEY'), allowBrowser === true);
  const headers = checkHeaders(options.headers);
  return {
    apiKey,
    secret: sentCredential(headers) ?? apiKey,
    baseUrl: resolveBaseUrl(options.baseUrl, variable('METRIC_BASE_URL')),
    timeout: checkTimeout(options.timeout) ?? 30_000,
    maxRetries: checkMaxRetries(options.maxRetries) ?? 2,
    // The global one as it is at each call: one a test's msw or an APM agent puts in place after the
    // client was made is the one that sends.
    fetch: given ?? ((input, init) => fetch(input, init)),
    headers,
    hooks: checkHooks(options.hooks),
    ...resolveLogging(options.logLevel, variable('METRIC_LOG'), options.logger),
    maxResponseBytes: checkMaxResponseBytes(options.maxResponseBytes) ?? defaultMaxResponseBytes,
    ...resolveClientQuota(options),
    cache: checkCacheOption(options.cache),
  };
}

/** The key: the option, else METRIC_API_KEY, named as given; `null` sends none. */
function resolveApiKey(
  value: string | null | undefined,
  variable: string | undefined,
  allowBrowser: boolean,
): string | null {
  const apiKey = value === undefined ? variable : value;
  const source = value === undefined ? 'METRIC_API_KEY' : 'apiKey';
  if (apiKey === undefined || apiKey === '') {
    throw new ConfigurationError(
      'apiKey',
      'Missing API key: pass `apiKey` to new MetricClient() or set METRIC_API_KEY ' +
        '(use apiKey: null when a proxy adds the Authorization header)',
    );
  }
  if (apiKey !== null && (typeof apiKey !== 'string' || !keyForm.test(apiKey))) {
    // The value is never echoed: it is a secret even when it is malformed.
    const named = source === 'apiKey' ? '`apiKey`' : source;
    throw new ConfigurationError(
      source,
      `${named} must be a string of visible ASCII characters with no spaces`,
    );
  }
  if (apiKey !== null && inBrowser() && !allowBrowser) {
    throw new ConfigurationError(
      'dangerouslyAllowBrowser',
      'Refusing an API key in a browser, where anyone can read it: route requests through your ' +
        'server (apiKey: null), or set dangerouslyAllowBrowser: true to accept the risk',
    );
  }
  return apiKey;
}

/** The option, else METRIC_LOG, named as given; 'off' when neither is set. */
function resolveLogLevel(value: LogLevel | undefined, variable: string | undefined): LogLevel {
  const level = value ?? variable ?? 'off';
  if (!isLogLevel(level)) {
    const option = value === undefined ? 'METRIC_LOG' : 'logLevel';
    throw new ConfigurationError(option, `${option} must be one of ${logLevels.join(', ')}`);
  }
  return level;
}

/**
 * The level, and the logger with a method for each level it will be handed: one missing would throw a
 * TypeError from inside a request (and be retried as a connection failure) instead of failing here.
 */
function resolveLogging(
  value: LogLevel | undefined,
  variable: string | undefined,
  given: Logger | undefined,
): { logLevel: LogLevel; logger: Logger | undefined } {
  const logLevel = resolveLogLevel(value, variable);
  const logger = checkObject<Logger>('logger', given);
  if (logger !== undefined) {
    const used = logLevels.slice(1, logLevels.indexOf(logLevel) + 1) as Array<keyof Logger>;
    const missing = used.filter((name) => typeof logger[name] !== 'function');
    if (missing.length > 0) {
      throw new ConfigurationError(
        'logger',
        `\`logger\` must have a method for each level up to '${logLevel}' (${used.join(', ')}); it lacks ${missing.join(', ')}`,
      );
    }
  }
  return { logLevel, logger };
}

/** The base URL without its trailing slashes: the option, else METRIC_BASE_URL, named as given. */
function resolveBaseUrl(value: string | undefined, variable: string | undefined): string {
  const raw = value ?? variable;
  if (raw === undefined || raw === '') {
    throw new ConfigurationError(
      'baseUrl',
      'Missing base URL: pass `baseUrl` (ending in /api/v1) to new MetricClient() or set METRIC_BASE_URL',
    );
  }
  const url = checkHttpUrl(value === undefined ? 'METRIC_BASE_URL' : 'baseUrl', raw) as URL;
  // Only from the first slash of a run: /\/+$/ would backtrack from each, quadratic in a long run.
  return url.href.replace(/(?<!\/)\/+$/, '');
}

import { redacted, redactText, redactValue } from './redact.js';

/**
 * How much the client logs, from nothing to every request.
 *
 * @example
 * ```ts
 * import { type LogLevel, MetricClient } from 'scholarly-metrics';
 *
 * const logLevel: LogLevel = process.env.NODE_ENV === 'production' ? 'warn' : 'debug';
 * const client = new MetricClient({ apiKey, baseUrl, logLevel });
 * ```
 */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/**
 * Where log lines go: `console` fits, and so does winston. pino takes its details first, so it needs
 * an adapter: `{ error: (m, d) => log.error(d, m), warn: …, info: …, debug: … }`.
 *
 * @example
 * ```ts
 * import { type Logger, MetricClient } from 'scholarly-metrics';
 *
 * // One JSON line per entry on stderr, for a log collector.
 * const line = (level: string) => (message: string, details?: Record<string, unknown>) =>
 *   process.stderr.write(`${JSON.stringify({ level, message, ...details })}\n`);
 * const logger: Logger = { error: line('error'), warn: line('warn'), info: line('info'), debug: line('debug') };
 * const client = new MetricClient({ apiKey, baseUrl, logLevel: 'info', logger });
 * ```
 */
export interface Logger {
  error(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  info(message: string, details?: Record<string, unknown>): void;
  debug(message: string, details?: Record<string, unknown>): void;
}

const rank: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** Every level, from quiet to chatty. */
export const logLevels = Object.keys(rank) as LogLevel[];

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(rank, value);
}

/**
 * A logger that drops lines above `level`; `undefined` when nothing would ever be logged. Every line
 * it passes on, at every level, has `secret` cut out of its message and details, however encoded;
 * what `sink` throws is dropped.
 */
export function createLogger(
  level: LogLevel,
  sink: Logger | undefined,
  secret: string | null = null,
): Logger | undefined {
  if (level === 'off') return undefined;
  const target = sink ?? (globalThis.console as Logger);
  const at =
    (name: keyof Logger) =>
    (message: string, details?: Record<string, unknown>): void => {
      if (rank[name] > rank[level]) return;
      const line = `[scholarly-metrics] ${redactText(message, secret)}`;
      // Without details, the line is the message alone: console would print a trailing `undefined`.
      // A logger that throws, or whose method is async and rejects, is passed over: a line it could not
      // write must not change a call's outcome. The method runs at once; only its failure is caught.
      (async () =>
        details === undefined
          ? target[name](line)
          : target[name](line, redactValue(details, secret) as Record<string, unknown>))().catch(() => {});
    };
  // A method per level but `off`.
  const methods = logLevels.slice(1) as Array<keyof Logger>;
  return Object.fromEntries(methods.map((name) => [name, at(name)])) as Record<keyof Logger, Logger['debug']>;
}

/**
 * The names of headers that carry credentials (Authorization, Proxy-Authorization, Cookie, X-Api-Key,
 * X-Access-Token, X-Session-Id…), lower-cased as `Headers` gives them.
 */
const credentialHeader = /auth|cookie|key|token|session/;

/**
 * Request headers as a plain object for a log line, each credential header's value {@link redacted},
 * whoever set it (the `headers` option, a hook). A logger from {@link createLogger} cuts the key from
 * the other headers, where a hook may have put it.
 */
export function loggableHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = credentialHeader.test(name) ? redacted : value;
  });
  return out;
}

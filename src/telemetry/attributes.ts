import type { stoppedByWalk } from '../core/abort.js';
import type { mentionsSecret } from '../core/redact.js';
import type { describeStatus } from '../core/status-message.js';
import type { TelemetryAttributes } from '../core/telemetry-types.js';
import type { Route } from '../core/transport.js';

/**
 * What the telemetry uses of the client's first load, handed over by its loader (telemetry/options.ts)
 * rather than imported: an on-demand chunk that imports a few of the first load's modules makes a
 * splitting bundler cut those modules out of the first load into chunks of their own.
 */
export interface FirstLoadParts {
  readonly stoppedByWalk: typeof stoppedByWalk;
  readonly mentionsSecret: typeof mentionsSecret;
  readonly describeStatus: typeof describeStatus;
}

/** `server.address` and `server.port` of the base URL. */
export function serverAttributes(baseUrl: string): TelemetryAttributes {
  const url = new URL(baseUrl);
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return { 'server.address': url.hostname, 'server.port': port };
}

/** The route as built for this call, or `undefined` when its parameters were refused. */
export function routeOf(route: (() => Route) | undefined): Route | undefined {
  try {
    return route?.();
  } catch {
    return undefined;
  }
}

/**
 * What a call's span starts with: the request's method and URL template and, on a paged call, its
 * page. Never a value of the query, which may hold a search term.
 */
export function requestAttributes(
  template: string | undefined,
  route: Route | undefined,
): TelemetryAttributes {
  if (template === undefined) return {};
  const attributes: TelemetryAttributes = { 'http.request.method': 'GET', 'url.template': template };
  const page = route?.query?.page;
  const perPage = route?.query?.per_page;
  if (typeof page === 'number') attributes['scholarly_metrics.page'] = page;
  if (typeof perPage === 'number') attributes['scholarly_metrics.per_page'] = perPage;
  return attributes;
}

/** Why an attempt was retried, in few words: the status, `timeout` or `connection`. */
export function retryReason(error: Error): string {
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number') return String(status);
  return error.name === 'TimeoutError' ? 'timeout' : 'connection';
}

/** A class name as JavaScript spells one; any other `name` is text of whoever threw. */
const className = /^[A-Za-z_$][\w$]{0,63}$/;

/**
 * `error.type`: the error's class name. A name that is not a class name, or that holds the key, is
 * reported as `Error`: a thrown value's `name` may be anyone's text.
 */
export function errorType(
  error: unknown,
  secret: string | null,
  { mentionsSecret }: Pick<FirstLoadParts, 'mentionsSecret'>,
): string {
  if (!(error instanceof Error)) return '_OTHER';
  return className.test(error.name) && !mentionsSecret(error.name, secret) ? error.name : 'Error';
}

/**
 * A failed call's span status, in the SDK's words alone: the error's class and, for an answer of the
 * API, its status and label (`NotFoundError: 404 Not Found`). What a server, a proxy, a hook or Redis
 * wrote stays in the error the caller gets; a tracing backend is not the place for it, however
 * it was encoded.
 */
export function statusMessage(error: unknown, secret: string | null, parts: FirstLoadParts): string {
  const type = errorType(error, secret, parts);
  const status = error instanceof Error ? (error as { status?: unknown }).status : undefined;
  const isStatus = typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599;
  return isStatus ? `${type}: ${parts.describeStatus(status, undefined)}` : type;
}

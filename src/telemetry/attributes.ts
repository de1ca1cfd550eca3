import type { HeadersInput } from '../core/headers.js';
import { redactText } from '../core/redact.js';
import type { TelemetryAttributes } from '../core/telemetry-types.js';
import type { Route } from '../core/transport.js';

/** Each method's path below the base URL, with its parameters named rather than given. */
const templates: Readonly<Record<string, string>> = {
  'journals.list': '/journals',
  'journals.get': '/journals/{id}',
  'journals.papers': '/journals/{id}/papers',
  'journals.score': '/journals/{id}/score',
  'papers.search': '/papers',
  'papers.get': '/papers/{doi}',
  'authors.list': '/authors',
  'authors.get': '/authors/{id}',
  'subjects.list': '/subjects',
  'countries.list': '/countries',
};

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
export function requestAttributes(method: string, route: Route | undefined): TelemetryAttributes {
  const template = templates[method];
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

/** `error.type`: the error's class name. */
export function errorType(error: unknown): string {
  return error instanceof Error ? error.name : '_OTHER';
}

/** The values of headers worth keeping secret: all but the few the SDK sets to known words. */
export function headerValues(headers: HeadersInput | undefined): string[] {
  if (headers === undefined) return [];
  const values: string[] = [];
  try {
    for (const [name, value] of new Headers(headers as HeadersInit)) {
      if (name !== 'accept' && name !== 'user-agent' && value.length >= 3) values.push(value);
    }
  } catch {
    // Headers that are not headers were refused with the call's other options.
  }
  return values;
}

/** A URL's query, wherever a message quotes one. */
const queryPattern = /([\w/%.~-])\?[^\s'"`<>]+/g;

/**
 * An error's message as a span may carry it: without the key (however encoded), without any query
 * string, and without the text values the query held (a server may echo a search term).
 */
export function safeMessage(
  error: unknown,
  secret: string | null,
  route: Route | undefined,
  headerValues: readonly string[] = [],
): string {
  let text = error instanceof Error ? error.message : 'a value that is not an Error was thrown';
  text = redactText(text, secret);
  for (const value of headerValues) text = redactText(text, value);
  for (const [name, value] of Object.entries(route?.query ?? {})) {
    // A short value (a sort key, a country code) is no secret and would cut up the whole message;
    // a search term goes however short.
    if (typeof value === 'string' && value.length >= (name === 'q' ? 1 : 3)) text = redactText(text, value);
  }
  return text.replace(queryPattern, '$1?[query]');
}

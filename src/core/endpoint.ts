import { quote } from './describe-value.js';
import { ConfigurationError, InvalidParameterError } from './errors.js';
import { isRecord } from './is-record.js';
import { requestOptionNames } from './options/request.js';
import { checkParams, type ParamCheck, type Query } from './params.js';
import type { ResponseShape } from './validate.js';

/**
 * What one endpoint of the API is, declared once (src/api/endpoints.ts) and read by every part that
 * needs it: the resources build their requests from it, the cache keeps answers and lifetimes by it,
 * telemetry names spans by it, the mock routes by it and the command line lists it.
 */
export interface Endpoint<T = unknown> {
  /** The contract's name of the method that calls it: `journals.get`. */
  readonly name: string;
  /** The path below the base URL, its parameters in braces: `/journals/{id}`. */
  readonly path: string;
  /** A check for each `{name}` in the path: the value sent, or an `InvalidParameterError`. */
  readonly pathParams: Readonly<Record<string, ParamCheck>>;
  /** A check for each query parameter the endpoint takes; a name it lacks is refused. */
  readonly query: Readonly<Record<string, ParamCheck>>;
  /** The answer's check. */
  readonly shape: ResponseShape<T>;
  /** Whether the answer is a page (`{ data, total }`) that `page` and `per_page` walk. */
  readonly paged: boolean;
  /** How long the cache keeps an answer unless `cache.ttl` says otherwise, in ms. */
  readonly ttl: number;
  /** The path parameter that names the record answered (`id`, `doi`): the cache checks it. */
  readonly identity?: string | undefined;
  /** How the answer shows journals' scores, when a `score_updated` event can make it wrong. */
  readonly scoreEvent?: ScoreEventView | undefined;
}

/**
 * Where an answer shows a journal's score: `list`, a list of journals each with `score`; `journal`,
 * the journal named by the path's `{id}`, its score in the field `score`.
 */
export interface ScoreEventView {
  readonly of: 'list' | 'journal';
  readonly score: string;
}

/** One request of an endpoint: its encoded path and query, and the checked values it was built from. */
export interface Route {
  readonly path: string;
  readonly query?: Query | undefined;
  /** The endpoint it calls, when a resource built it. */
  readonly endpoint?: Endpoint | undefined;
  /** The checked path values (`{ id: 42 }`). */
  readonly values?: Readonly<Record<string, string | number>> | undefined;
}

/** Values for an endpoint's path parameters, as a method received them. */
export type PathValues = Readonly<Record<string, unknown>>;

/**
 * The request of `endpoint` for these values and parameters: each path value passes its check and
 * is encoded as one segment; a parameter name the endpoint does not take is refused before any value
 * is looked at, then each value passes its check. `given` holds values the caller does not set
 * directly (the page a walk is on).
 */
export function routeTo(
  endpoint: Endpoint,
  pathValues?: PathValues,
  params?: object,
  given?: Readonly<Record<string, unknown>>,
): Route {
  const values: Record<string, string | number> = {};
  // Split at braces rather than matched with a regular expression: this runs on every request, and a
  // split is the cheaper of the two. Each value is percent-encoded whole: nothing in it (`/ ? # %`, a
  // space, any Unicode) can leave its segment.
  let [path, ...pieces] = endpoint.path.split('{') as [string, ...string[]];
  for (const piece of pieces) {
    const [name, after] = piece.split('}') as [string, string];
    values[name] = endpoint.pathParams[name]!(name, pathValues?.[name]) as string | number;
    path += encodeURIComponent(values[name]) + after;
  }
  return { path, query: checkQuery(endpoint, params, given), endpoint, values };
}

/** The query `endpoint` sends for `params` (see {@link routeTo}). */
export function checkQuery(
  endpoint: Endpoint,
  params: object | undefined,
  given: Readonly<Record<string, unknown>> = {},
): Query | undefined {
  const known = Object.keys(endpoint.query);
  const values = checkParams(params) as Record<string, unknown>;
  for (const name of Object.keys(values)) {
    if (!Object.hasOwn(endpoint.query, name)) throw unknownParameter(endpoint, name, known);
  }
  if (known.length === 0) return undefined;
  const query: Record<string, Query[string]> = {};
  for (const name of known)
    query[name] = endpoint.query[name]!(name, Object.hasOwn(given, name) ? given[name] : values[name]);
  return query;
}

/** What a refusal names of a method: its name, path parameters and query parameters. */
export type MethodShape = Pick<Endpoint, 'name' | 'pathParams' | 'query'>;

/** `id, ` for an endpoint with an `{id}` in its path: what a hint writes before the parameters. */
function leadingArguments(endpoint: MethodShape): string {
  const names = Object.keys(endpoint.pathParams);
  return names.length === 0 ? '' : `${names.join(', ')}, `;
}

function unknownParameter(endpoint: Endpoint, name: string, known: string[]): InvalidParameterError {
  const { name: method } = endpoint;
  if (Object.hasOwn(requestOptionNames, name) || (endpoint.paged && name === 'prefetch')) {
    return new InvalidParameterError(
      name,
      `${method}() takes no parameter "${name}"; request options go in the last argument: ${method}(${leadingArguments(endpoint)}params, { ${name} })`,
    );
  }
  const takes = known.length === 0 ? 'it takes none' : `it takes ${known.join(', ')}`;
  return new InvalidParameterError(name, `${method}() takes no parameter ${quote(name)}; ${takes}`);
}

/**
 * The names in the options argument of a call of `endpoint`, checked before anything is sent: each
 * must be one of `allowed` (their values are checked where they are used). A name it lacks is an
 * invalid option of the call, a `ConfigurationError`, even when it is one of the call's parameters.
 */
export function checkOptionNames(
  endpoint: MethodShape,
  options: object | undefined,
  allowed: Readonly<Record<string, true>>,
): void {
  // Anything but an object is refused, naming `options`, where the values are checked.
  if (!isRecord(options)) return;
  for (const name of Object.keys(options)) {
    if (Object.hasOwn(allowed, name)) continue;
    const { name: method } = endpoint;
    if (Object.hasOwn(endpoint.query, name)) {
      throw new ConfigurationError(
        name,
        `${method}() takes "${name}" as a parameter, not a request option: ${method}(${leadingArguments(endpoint)}{ ${name} }, options)`,
      );
    }
    const takes = Object.keys(allowed).join(', ');
    throw new ConfigurationError(
      name,
      `${method}() takes no parameter or request option ${quote(name)}; its request options are ${takes}`,
    );
  }
}

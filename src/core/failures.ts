import { explainCause } from './clean-cause.js';
import { pathTooDeep } from './depth.js';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from './errors.js';
import { redactHeaders, redactText, redactValue, type Secret } from './redact.js';
import { parseRetryAfter } from './retry.js';

/** The error type of each status that has one of its own; a 429's carries the wait as well. */
const errorTypes: Readonly<Record<number, typeof APIError>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
};

/** The typed error for a non-2xx answer; `secret` is kept out of its headers and body. */
export function statusError(response: Response, text: string, secret: Secret): APIError {
  const headers = redactHeaders(response.headers, secret);
  const body = text === '' ? undefined : errorBody(text, secret);
  const { status } = response;
  if (status === 429) return new RateLimitError(status, headers, body, parseRetryAfter(headers));
  const type = errorTypes[status] ?? (status >= 500 && status < 600 ? InternalServerError : APIError);
  return new type(status, headers, body);
}

/**
 * An error body as the caller gets it: parsed when it is JSON nested no deeper than a 2xx body may be
 * (`maxBodyDepth`), its text otherwise, as for a body that is not JSON.
 */
function errorBody(text: string, secret: Secret): unknown {
  try {
    const value: unknown = JSON.parse(text);
    if (!pathTooDeep(value)) return redactValue(value, secret);
  } catch {}
  return redactText(text, secret);
}

/**
 * A request that got no answer. ky wraps the runtime's error in its own `NetworkError`; the cause
 * kept is the runtime's, and the message gives the reason its chain names (see `explainCause`).
 */
export async function connectionError(
  what: string,
  error: unknown,
  secret: Secret,
): Promise<ConnectionError> {
  // A runtime's own NetworkError (a DOMException) has no cause: it is the reason itself. What a
  // `fetch` option rejects with may be anything: null, or an object whose getters throw.
  let raw = error;
  try {
    if ((error as { name?: unknown } | null)?.name === 'NetworkError') raw = (error as Error).cause ?? error;
  } catch {}
  const { cause, reason } = await explainCause(raw, secret);
  return new ConnectionError(`${what} failed: ${reason}`, { cause });
}

import { explainCause } from './clean-cause.js';
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
import { escapeUnsafe } from './escape.js';
import { redactHeaders, redactText, redactValue } from './redact.js';
import { parseRetryAfter } from './retry.js';

/** The typed error for a non-2xx answer; `secret` is kept out of its headers and body. */
export function statusError(response: Response, text: string, secret: string | null): APIError {
  const headers = redactHeaders(response.headers, secret);
  let body: unknown;
  if (text !== '') {
    try {
      body = redactValue(JSON.parse(text), secret);
    } catch {
      body = redactText(text, secret);
    }
  }
  const { status } = response;
  switch (status) {
    case 400:
      return new BadRequestError(status, headers, body);
    case 401:
      return new AuthenticationError(status, headers, body);
    case 403:
      return new PermissionDeniedError(status, headers, body);
    case 404:
      return new NotFoundError(status, headers, body);
    case 429:
      return new RateLimitError(status, headers, body, parseRetryAfter(headers));
    default:
      return status >= 500
        ? new InternalServerError(status, headers, body)
        : new APIError(status, headers, body);
  }
}

/**
 * A request that got no answer. ky wraps the runtime's error in its own `NetworkError`; the cause
 * kept is the runtime's, and the message gives the reason its chain names (see `explainCause`).
 */
export async function connectionError(
  what: string,
  error: unknown,
  secret: string | null,
): Promise<ConnectionError> {
  // A runtime's own NetworkError (a DOMException) has no cause: it is the reason itself. What a
  // `fetch` option rejects with may be anything: null, or an object whose getters throw.
  let raw = error;
  try {
    if ((error as { name?: unknown } | null)?.name === 'NetworkError') raw = (error as Error).cause ?? error;
  } catch {}
  const { cause, reason } = await explainCause(raw, secret);
  return new ConnectionError(`${what} failed: ${escapeUnsafe(reason)}`, { cause });
}

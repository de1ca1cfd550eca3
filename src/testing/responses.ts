/** The `error` codes of the mock's error bodies, by status. */
const errorCodes: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  417: 'expectation_failed',
  429: 'rate_limited',
  431: 'request_header_fields_too_large',
  500: 'server_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

/**
 * The body of every error the mock sends: a stable machine code and a sentence for people.
 *
 * @example
 * ```ts
 * const body: MockErrorBody = { error: 'not_found', message: 'No journal with id 7' };
 * ```
 */
export interface MockErrorBody {
  /** `bad_request`, `unauthorized`, `forbidden`, `not_found`, `rate_limited`, `server_error`… */
  readonly error: string;
  readonly message: string;
}

/** A JSON response. The API says every body is `application/json`. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** A JSON error response with the mock's error body. */
export function errorResponse(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  const body: MockErrorBody = { error: errorCodeOf(status), message };
  return json(body, status, headers);
}

/** The `error` code the mock uses for a status. */
export function errorCodeOf(status: number): string {
  return errorCodes[status] ?? (status >= 500 ? 'server_error' : 'error');
}

/** Thrown inside a route to answer with an error; `handle` turns it into a response. */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

/** 400 with a message naming the parameter. */
export function badRequest(message: string): HttpError {
  return new HttpError(400, message);
}

/**
 * Names the answer with `X-Request-Id`, as the API's gateways do, so a client's error or log line can
 * be matched to the mock's request record. A fault that sets its own `x-request-id` keeps it; a dropped
 * connection (`Response.error()`) has no headers to carry one.
 */
export function withRequestId(response: Response, requestId: string): Response {
  if (response.type === 'error' || response.headers.has('x-request-id')) return response;
  response.headers.set('x-request-id', requestId);
  return response;
}

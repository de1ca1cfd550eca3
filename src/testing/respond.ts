import { sleep } from '../core/abort.js';
import { authenticate } from './auth.js';
import type { MockPlan } from './constants.js';
import type { MutableDataset } from './dataset.js';
import { corrupt, type FaultController } from './faults.js';
import type { RateLimiter } from './rate-limit.js';
import { errorResponse, HttpError, json } from './responses.js';
import type { Router } from './routes.js';

/** Statuses whose answers carry no body (HTTP forbids one): a fault with one answers with none. */
const bodiless = new Set([204, 205, 304]);

/** What answering an API request takes: the mock's state, read at each request. */
export interface ResponderParts {
  readonly basePath: string;
  readonly keys: ReadonlyMap<string, MockPlan>;
  readonly limiter: RateLimiter;
  readonly faults: FaultController;
  readonly router: Router;
  readonly dataset: () => MutableDataset;
  /** How many times the mock was reset: a request begun before a reset is not counted after it. */
  readonly resets: () => number;
}

/** The API's answer to one request, faults applied; `Response.error()` when the connection drops. */
export function createResponder(parts: ResponderParts): (request: Request, url: URL) => Promise<Response> {
  const { basePath } = parts;
  const answer = (request: Request, url: URL, counted: boolean): Response => {
    const path = url.pathname;
    const key = authenticate(request, parts.keys);
    if (counted) parts.limiter.take(key);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new HttpError(405, `${request.method} is not allowed: every endpoint is a GET`, {
        allow: 'GET, HEAD, OPTIONS',
      });
    }
    return json(parts.router(parts.dataset(), path.slice(basePath.length), url.searchParams));
  };

  // HTTP sends no body with an answer to HEAD, errors and faults included: as the HTTP server does.
  return async (request, url) => {
    const response = await faulted(request, url);
    return request.method === 'HEAD' && response.body !== null ? new Response(null, response) : response;
  };

  async function faulted(request: Request, url: URL): Promise<Response> {
    const path = url.pathname;
    // Faults are meant for the API: a health probe or a favicon request must not use one up.
    if (!(path === basePath || path.startsWith(`${basePath}/`))) {
      return errorResponse(404, `No endpoint at ${path}: the API lives under ${basePath}`);
    }
    const fault = parts.faults.take();
    const resets = parts.resets();
    if (fault.delayMs > 0) {
      try {
        await sleep(fault.delayMs, request.signal);
      } catch {
        return Response.error(); // the client gave up: nobody reads this answer
      }
    }
    if (fault.reset) return Response.error();
    try {
      const response =
        fault.status === undefined
          ? answer(request, url, parts.resets() === resets)
          : bodiless.has(fault.status)
            ? new Response(null, { status: fault.status, headers: fault.headers })
            : fault.body === undefined
              ? errorResponse(fault.status, `Injected fault: status ${fault.status}`, fault.headers)
              : json(fault.body, fault.status, fault.headers);
      return fault.malformed === undefined ? response : await corrupt(response, fault.malformed);
    } catch (error) {
      return error instanceof HttpError
        ? errorResponse(error.status, error.message, error.headers)
        : errorResponse(500, `Mock API bug: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

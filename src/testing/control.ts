import { ConfigurationError } from '../core/errors.js';
import { checkNames } from '../core/options/checks.js';
import type { MockFault } from './faults.js';
import type { MockApi } from './mock-api-types.js';
import { errorCodeOf, errorResponse, HttpError, json } from './responses.js';
import { checkScoreUpdate, UnknownJournalError } from './score-update.js';

/** The methods each control endpoint answers, for the `Allow` of a 405 (OPTIONS is a preflight). */
const controlMethods: Record<string, string> = {
  '/__mock/score': 'POST, OPTIONS',
  '/__mock/webhooks': 'GET, HEAD, POST, DELETE, OPTIONS',
  '/__mock/faults': 'POST, DELETE, OPTIONS',
  '/__mock/reset': 'POST, OPTIONS',
};

/**
 * The control endpoints (option `control: true`), outside the API's base path so they can never be
 * mistaken for the API. They need no key: the server listens on loopback only.
 *
 * - `POST /__mock/score` `{ "journal_id": 7, "new_score": 81 }` → `{ event, deliveries }`
 * - `GET /__mock/webhooks` → `{ urls }`; `POST` / `DELETE` `{ "url": "…" }` subscribe / unsubscribe
 * - `POST /__mock/faults` with a fault (as `api.faults.next`) → 202 `{ pending }`; `DELETE` clears the queue
 * - `POST /__mock/reset` → 204, as `api.reset()`
 *
 * Another method on one of these paths is a 405 with `Allow`, as on the API's paths.
 */
export async function handleControl(api: MockApi, request: Request, url: URL): Promise<Response> {
  const allow = controlMethods[url.pathname];
  if (allow === undefined) return errorResponse(404, `No control endpoint ${url.pathname}`);
  if (!allow.split(', ').includes(request.method)) return controlMethodRefusal(request.method, url.pathname)!;
  try {
    return await route(api, request, `${request.method} ${url.pathname}`);
  } catch (error) {
    return refusal(error);
  }
}

/**
 * The 405 of `method` on the control endpoint at `pathname`, with the methods it answers; `undefined`
 * for a path that is no control endpoint.
 */
export function controlMethodRefusal(method: string, pathname: string): Response | undefined {
  const allow = controlMethods[pathname];
  return allow === undefined
    ? undefined
    : errorResponse(405, `${method} is not allowed on ${pathname}`, { allow });
}

async function route(api: MockApi, request: Request, route: string): Promise<Response> {
  switch (route) {
    case 'POST /__mock/score':
      return updateScore(api, await readObject(request, route, ['journal_id', 'new_score']));
    case 'GET /__mock/webhooks':
    case 'HEAD /__mock/webhooks':
      // A HEAD's answer loses its body in mock-api.ts, as every answer to HEAD does.
      return json({ urls: api.webhooks.urls });
    case 'POST /__mock/webhooks':
    case 'DELETE /__mock/webhooks': {
      const { url: hookUrl } = await readObject(request, route, ['url']);
      if (typeof hookUrl !== 'string') return errorResponse(400, 'Send {"url": "<absolute http(s) URL>"}');
      if (request.method === 'POST') api.webhooks.subscribe(hookUrl);
      else api.webhooks.unsubscribe(hookUrl);
      return json({ urls: api.webhooks.urls }, request.method === 'POST' ? 201 : 200);
    }
    case 'POST /__mock/faults':
      // Its fields are checked by `faults.next`, as a fault's.
      api.faults.next((await readObject(request)) as MockFault);
      return json({ pending: api.faults.pending }, 202);
    case 'DELETE /__mock/faults':
      api.faults.clear();
      return json({ pending: 0 });
    default:
      // POST /__mock/reset: handleControl lets no other method and path through.
      api.reset();
      return new Response(null, { status: 204 });
  }
}

/** `POST /__mock/score`, checked as `api.updateScore` checks it, naming the fields as the caller sent them. */
async function updateScore(api: MockApi, body: Record<string, unknown>): Promise<Response> {
  const { journal_id: journalId, new_score: newScore } = body;
  checkScoreUpdate(api.dataset, journalId, newScore, ['journal_id', 'new_score']);
  return json(await api.updateScore(journalId as number, newScore as number));
}

/**
 * The 400 for a value the mock's checks refused (they throw ConfigurationError, RangeError or
 * TypeError): the caller's mistake. A ConfigurationError's option goes in the body, so that
 * `mockControl` can throw a ConfigurationError naming it, as the call in-process would. A journal the
 * dataset lacks is a 404, as on the API's paths.
 */
function refusal(error: unknown): Response {
  if (error instanceof HttpError) return errorResponse(error.status, error.message, error.headers);
  if (error instanceof UnknownJournalError) return errorResponse(404, error.message);
  if (error instanceof ConfigurationError) {
    return json({ error: errorCodeOf(400), message: error.message, option: error.option }, 400);
  }
  if (error instanceof RangeError || error instanceof TypeError) return errorResponse(400, error.message);
  throw error;
}

/**
 * The body as a JSON object (of the fields `names`, when given); anything else (no body, not JSON, an
 * array, a field misspelt, which would be ignored) is a 400 in the mock's words, `route` naming the call.
 */
async function readObject(
  request: Request,
  route?: string,
  names?: readonly string[],
): Promise<Record<string, unknown>> {
  const text = await request.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    const got = text.trim() === '' ? 'it was empty' : 'it was not one';
    throw new HttpError(400, `The body must be a JSON object; ${got}`);
  }
  if (route !== undefined && names !== undefined) checkNames(route, body, names);
  return body as Record<string, unknown>;
}

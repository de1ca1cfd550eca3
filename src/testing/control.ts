import { ConfigurationError } from '../core/errors.js';
import type { MockFault } from './faults.js';
import type { MockApi } from './mock-api-types.js';
import { errorResponse, json } from './responses.js';

/**
 * The control endpoints (option `control: true`), outside the API's base path so they can never be
 * mistaken for the API. They need no key: the server listens on loopback only.
 *
 * - `POST /__mock/score` `{ "journal_id": 7, "new_score": 81 }` → `{ event, deliveries }`
 * - `GET /__mock/webhooks` → `{ urls }`; `POST` / `DELETE` `{ "url": "…" }` subscribe / unsubscribe
 * - `POST /__mock/faults` with a fault (as `api.faults.next`) → 202 `{ pending }`; `DELETE` clears the queue
 * - `POST /__mock/reset` → 204, as `api.reset()`
 */
export async function handleControl(api: MockApi, request: Request, url: URL): Promise<Response> {
  const route = `${request.method} ${url.pathname}`;
  try {
    switch (route) {
      case 'POST /__mock/score': {
        const body = await readObject(request);
        const journalId = body.journal_id;
        const newScore = body.new_score;
        if (!Number.isSafeInteger(journalId) || typeof newScore !== 'number') {
          return errorResponse(400, 'Send {"journal_id": <integer>, "new_score": <integer>}');
        }
        if (api.dataset.journal(journalId as number) === undefined) {
          return errorResponse(404, `No journal with id ${journalId}`);
        }
        return json(await api.updateScore(journalId as number, newScore));
      }
      case 'GET /__mock/webhooks':
        return json({ urls: api.webhooks.urls });
      case 'POST /__mock/webhooks':
      case 'DELETE /__mock/webhooks': {
        const { url: hookUrl } = await readObject(request);
        if (typeof hookUrl !== 'string') return errorResponse(400, 'Send {"url": "<absolute http(s) URL>"}');
        if (request.method === 'POST') api.webhooks.subscribe(hookUrl);
        else api.webhooks.unsubscribe(hookUrl);
        return json({ urls: api.webhooks.urls }, request.method === 'POST' ? 201 : 200);
      }
      case 'POST /__mock/faults':
        api.faults.next((await readObject(request)) as MockFault);
        return json({ pending: api.faults.pending }, 202);
      case 'DELETE /__mock/faults':
        api.faults.clear();
        return json({ pending: 0 });
      case 'POST /__mock/reset':
        api.reset();
        return new Response(null, { status: 204 });
      default:
        return errorResponse(404, `No control endpoint ${route}`);
    }
  } catch (error) {
    // The mock's checks throw ConfigurationError, RangeError or TypeError for bad values: the caller's mistake, a 400.
    if (
      error instanceof ConfigurationError ||
      error instanceof RangeError ||
      error instanceof TypeError ||
      error instanceof SyntaxError
    ) {
      return errorResponse(400, error.message);
    }
    throw error;
  }
}

async function readObject(request: Request): Promise<Record<string, unknown>> {
  const body: unknown = JSON.parse(await request.text());
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new TypeError('Send a JSON object');
  return body as Record<string, unknown>;
}

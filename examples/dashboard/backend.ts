/**
 * What runs beside the page: the mock API (your real API in production), and a small server that
 * receives the API's webhooks and relays each event to every open page as a server-sent event.
 *
 *   API ──webhook──▶ POST /hooks ──▶ relay.publish ──▶ GET /events (EventSource in every page)
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { type MockServer, startMockServer } from 'scholarly-metrics/testing';
import { createEventRelay, createWebhookHandler } from 'scholarly-metrics/webhooks';

export interface DashboardBackend {
  /** The mock API's origin (its base URL is `${api}/api/v1`). */
  readonly api: string;
  /** The relay's origin: `GET ${events}/events` streams the events, `POST ${events}/hooks` takes webhooks. */
  readonly events: string;
  readonly mock: MockServer;
  close(): Promise<void>;
}

export async function startDashboardBackend(
  ports: { api?: number; events?: number } = {},
): Promise<DashboardBackend> {
  const relay = createEventRelay();
  const receive = createWebhookHandler((event) => relay.publish(event));
  const route = (request: Request): Response | Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (pathname === '/events' && request.method === 'GET') return relay.handler(request);
    if (pathname === '/hooks') return receive(request);
    return new Response('not found', { status: 404 });
  };
  const relayServer = createServer((req, res) => void serveFetch(route, req, res));
  relayServer.listen(ports.events ?? 0, '127.0.0.1');
  await once(relayServer, 'listening');
  const events = `http://127.0.0.1:${(relayServer.address() as AddressInfo).port}`;
  // The mock sends its score_updated webhooks to the relay, as the real API would to your server.
  const mock = await startMockServer({
    port: ports.api ?? 0,
    control: true,
    webhooks: { urls: [`${events}/hooks`] },
  });
  return {
    api: new URL(mock.url).origin,
    events,
    mock,
    async close() {
      relay.close();
      relayServer.closeAllConnections();
      relayServer.close();
      await mock.close();
    },
  };
}

/** Answers a Node request with a Fetch handler, streaming the body (server-sent events included). */
async function serveFetch(
  handler: (request: Request) => Response | Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const abort = new AbortController();
  res.once('close', () => abort.abort());
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
    method: req.method,
    headers: Object.entries(req.headers).flatMap(([name, value]) =>
      value === undefined
        ? []
        : [[name, Array.isArray(value) ? value.join(', ') : value] as [string, string]],
    ),
    signal: abort.signal,
    ...(hasBody && { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' }),
  });
  const response = await handler(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>)
    .once('error', () => res.destroy())
    .pipe(res);
}

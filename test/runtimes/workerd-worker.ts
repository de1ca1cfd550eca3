// workerd's Worker (scripts/test-workerd.mjs bundles it with esbuild from the packed package, as a
// Workers project would): `GET /smoke` runs the shared checks against the mock, `POST /webhook` is the
// SDK's Fetch webhook receiver, `GET /received` lists the events it accepted, and `GET /events` is the
// event relay those events are published to.
import { createEventRelay, createWebhookHandler, type WebhookEvent } from 'scholarly-metrics/webhooks';
import { runSmoke } from './smoke.js';

/** Text bindings from the workerd config. */
interface Env {
  MOCK_BASE_URL: string;
  MOCK_API_KEY: string;
}

const received: WebhookEvent[] = [];
const relay = createEventRelay();
const receiveWebhook = createWebhookHandler((event) => {
  received.push(event);
  relay.publish(event);
});

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === '/webhook') return receiveWebhook(request);
    if (pathname === '/received') return Response.json(received);
    if (pathname === '/events') return relay.handler(request);
    if (pathname === '/smoke') {
      try {
        return Response.json({
          passed: await runSmoke({ baseUrl: env.MOCK_BASE_URL, apiKey: env.MOCK_API_KEY }),
        });
      } catch (error) {
        const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
        return Response.json({ error: detail }, { status: 500 });
      }
    }
    return new Response('no such route', { status: 404 });
  },
};

// The webhook entry: parse, handlers and their options.
import {
  createNodeWebhookHandler,
  createWebhookHandler,
  parseWebhookEvent,
  type WebhookEvent,
  type WebhookHandlerOptions,
} from 'scholarly-metrics/webhooks';

declare const maxBodyBytes: number | undefined;

export async function receive(request: Request): Promise<WebhookEvent> {
  const fromText = parseWebhookEvent(await request.text());
  const fromBytes = parseWebhookEvent(new Uint8Array(await request.arrayBuffer()));
  const fromObject = parseWebhookEvent({ event: 'score_updated' });
  // @ts-expect-error: a forgotten await: the body is still a promise
  parseWebhookEvent(request.text());
  // @ts-expect-error: a Request is the way to a body, not one: its text is
  parseWebhookEvent(request);
  // A framework's parsed body, typed unknown (Fastify's, JSON.parse's), is checked at run time.
  const parsed: unknown = JSON.parse(await request.text());
  parseWebhookEvent(parsed);
  console.log(fromBytes.new_score, fromObject.quartile);
  return fromText;
}

export function handlers(): unknown[] {
  const options: WebhookHandlerOptions = { maxBodyBytes, onError: undefined };
  const fetchHandler = createWebhookHandler((event) => console.log(event.journal_id), options);
  const nodeHandler = createNodeWebhookHandler(async (event) => console.log(event.old_score), options);
  return [fetchHandler, nodeHandler];
}

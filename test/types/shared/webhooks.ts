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
  console.log(fromBytes.new_score, fromObject.quartile);
  return fromText;
}

export function handlers(): unknown[] {
  const options: WebhookHandlerOptions = { maxBodyBytes, onError: undefined };
  const fetchHandler = createWebhookHandler((event) => console.log(event.journal_id), options);
  const nodeHandler = createNodeWebhookHandler(async (event) => console.log(event.old_score), options);
  return [fetchHandler, nodeHandler];
}

// The webhook entry: parse, handlers and their options.
import {
  createEventRelay,
  createNodeWebhookHandler,
  createWebhookHandler,
  parseWebhookEvent,
  type ReadBody,
  type WebhookEvent,
  type WebhookHandlerOptions,
} from 'scholarly-metrics/webhooks';

// Code passing a body of its own type parameter on, as ReadBody's example shows it.
export function journalOf<Body>(body: Body & ReadBody<Body>): number {
  const event: WebhookEvent = parseWebhookEvent<Body>(body);
  return event.journal_id;
}
journalOf({ event: 'score_updated', journal_id: 7 });
// A string or an event of a narrower type needs no type argument.
export const fromText = <Text extends string>(text: Text) => parseWebhookEvent(text);
export const relayed = <Event extends WebhookEvent>(event: Event) => createEventRelay().publish(event);

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
  // Express's req.body is typed any (as JSON.parse's result is): taken, and checked at run time.
  parseWebhookEvent(JSON.parse('{}'));
  // @ts-expect-error: a union that may be a Request may be no body yet
  parseWebhookEvent(parsed as string | Request);
  const relay = createEventRelay();
  relay.publish(parsed);
  // @ts-expect-error: the relay takes what parseWebhookEvent takes
  relay.publish(request.text());
  console.log(fromBytes.new_score, fromObject.quartile);
  return fromText;
}

export function handlers(): unknown[] {
  const options: WebhookHandlerOptions = { maxBodyBytes, onError: undefined };
  const fetchHandler = createWebhookHandler((event) => console.log(event.journal_id), options);
  const nodeHandler = createNodeWebhookHandler(async (event) => console.log(event.old_score), options);
  return [fetchHandler, nodeHandler];
}

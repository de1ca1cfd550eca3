// What the node-handler tests share: servers closed after each test, the handler served, fake streams.
import { EventEmitter } from 'node:events';
import { afterEach, vi } from 'vitest';
import {
  createNodeWebhookHandler,
  type NodeWebhookRequest,
  type WebhookEvent,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
import { chain, startServer } from './node-server.js';

/** The servers the running test started: each file closes them with {@link closeServersAfterEach}. */
export const servers: { close: () => Promise<void> }[] = [];

/** Closes, after each test of the calling file, the servers the test started, and restores its spies. */
export function closeServersAfterEach(): void {
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
    vi.restoreAllMocks();
  });
}

/** A server whose only route is the handler (optionally behind Express-style middleware). */
export async function serve(
  onEvent: (event: WebhookEvent) => unknown = () => {},
  options: WebhookHandlerOptions & { before?: Parameters<typeof chain> } = {},
) {
  const events: WebhookEvent[] = [];
  const errors: unknown[] = [];
  const { before = [], ...rest } = options;
  const handler = createNodeWebhookHandler(
    (event) => {
      events.push(event);
      return onEvent(event);
    },
    { onError: (error) => errors.push(error), ...rest },
  );
  const server = await startServer(before.length ? chain(...before, handler) : handler);
  servers.push(server);
  return { url: server.url, events, errors };
}

/** A POST of `body` to `url`. */
export const postJson = (url: string, body: BodyInit, headers?: HeadersInit) =>
  fetch(url, { method: 'POST', body, headers });

/** A request stream made by hand, to drive events the network cannot produce on demand. */
export function fakeRequest(method: string): NodeWebhookRequest & EventEmitter {
  return Object.assign(new EventEmitter(), { method, headers: {} });
}

/** A response that keeps what the handler wrote; `done` settles when it ends. */
export function fakeResponse() {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const res = {
    statusCode: 0,
    headers: {} as Record<string, string>,
    body: '',
    setHeader(name: string, value: string) {
      res.headers[name] = value;
    },
    end(chunk: string) {
      res.body = chunk;
      finish();
    },
  };
  return { res, done };
}

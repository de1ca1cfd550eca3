// createNodeWebhookHandler over node:http: answers, the callback's errors, and its types.
import { createServer, type IncomingMessage, request } from 'node:http';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  createNodeWebhookHandler,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
} from '../../src/webhooks/index.js';
import { encode, invalidBodies, validEvent, validJson } from './fixtures.js';
import { closeServersAfterEach, postJson, serve, servers } from './node-handler-setup.js';
import { startServer } from './node-server.js';

closeServersAfterEach();

describe('createNodeWebhookHandler over node:http', () => {
  it('answers 200 {"received":true} after the callback, with the typed event', async () => {
    const { url, events } = await serve();
    const response = await postJson(url, validJson, { 'content-type': 'application/json' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ received: true });
    expect(events).toEqual([validEvent]);
  });

  it('passes the request to the callback', async () => {
    let userAgent: unknown;
    const handler = createNodeWebhookHandler<IncomingMessage>((_event, { req }) => {
      userAgent = req.headers['user-agent'];
    });
    const server = await startServer(handler);
    servers.push(server);
    await postJson(server.url, validJson, { 'user-agent': 'metric-webhooks/1' });
    expect(userAgent).toBe('metric-webhooks/1');
  });

  it('waits for an async callback before answering', async () => {
    let finished = false;
    const { url } = await serve(async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      finished = true;
    });
    const response = await postJson(url, validJson);
    expect(finished).toBe(true);
    expect(response.status).toBe(200);
  });

  it('reads a body sent in many small chunks', async () => {
    const { url, events } = await serve();
    const bytes = encode(validJson);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(Uint8Array.of(byte));
        controller.close();
      },
    });
    const response = await fetch(url, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(200);
    expect(events).toEqual([validEvent]);
  });

  it.each(['GET', 'PUT', 'DELETE'])('answers %s with 405 and Allow: POST', async (method) => {
    const { url, events } = await serve();
    const response = await fetch(url, { method, body: method === 'GET' ? null : validJson });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(events).toEqual([]);
  });

  it.each(invalidBodies)('answers 400 with the reason for %s', async (_name, body, message) => {
    const { url, events, errors } = await serve();
    const response = await postJson(url, body);
    expect(response.status).toBe(400);
    const answer = await response.json();
    expect(answer.error).toBe('invalid_payload');
    expect(answer.message).toContain(message);
    expect(events).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('createNodeWebhookHandler: callback errors', () => {
  it.each([
    [
      'throws',
      () => {
        throw new Error('token sk-secret');
      },
    ],
    ['rejects', async () => Promise.reject(new Error('token sk-secret'))],
  ])('answers 500 without details when the callback %s, and reports it', async (_name, onEvent) => {
    const { url, errors } = await serve(onEvent);
    const response = await postJson(url, validJson);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('sk-secret');
    expect(JSON.parse(text)).toEqual({ error: 'internal_error', message: 'the webhook receiver failed' });
    expect(errors.map(String)).toEqual(['Error: token sk-secret']);
  });

  it('logs with console.error when no onError is given', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = new Error('callback');
    const server = await startServer(
      createNodeWebhookHandler(() => {
        throw failure;
      }),
    );
    servers.push(server);
    expect((await postJson(server.url, validJson)).status).toBe(500);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('webhook delivery failed'), failure);
  });
});

describe('createNodeWebhookHandler: types', () => {
  it('fits http.createServer and the structural request/response types', () => {
    const handler = createNodeWebhookHandler(() => {});
    const server = createServer(handler);
    server.close();
    expectTypeOf<IncomingMessage>().toExtend<NodeWebhookRequest>();
    expectTypeOf<import('node:http').ServerResponse>().toExtend<NodeWebhookResponse>();
    expectTypeOf(handler).parameter(2).toEqualTypeOf<((error?: unknown) => void) | undefined>();
    expect(typeof request).toBe('function');
  });
});

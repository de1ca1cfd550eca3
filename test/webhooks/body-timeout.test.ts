/**
 * `bodyTimeoutMs`: a body that takes too long to arrive is answered 408 and its connection released,
 * in both receivers, against real slow clients on 127.0.0.1. The handlers' timers run on a fake clock
 * (sockets stay real), so the deadline is crossed by advancing the clock, never by waiting.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/core/errors.js';
import {
  createNodeWebhookHandler,
  createWebhookHandler,
  type WebhookEvent,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
import { countSdkTimers, useFakeClock } from '../helpers/fake-clock.js';
import { validEvent, validJson } from './fixtures.js';
import { openSlowClient, startCountingServer, until } from './slow-client.js';

const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/**
 * A Node server in front of the Fetch handler, as an adapter (Hono's, Next's) would be: the request
 * body becomes a ReadableStream; cancelling it stops reading from the socket.
 */
function fetchAdapter(handler: (request: Request) => Promise<Response>, cancelled: { count: number }) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        req.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
        req.on('end', () => controller.close());
      },
      cancel() {
        cancelled.count += 1;
        req.pause();
      },
    });
    const headers = new Headers(req.headers as Record<string, string>);
    const request = new Request('http://127.0.0.1/hooks/metric', {
      method: req.method,
      headers,
      body,
      duplex: 'half',
    } as RequestInit);
    void handler(request).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(await response.text());
    });
  };
}

type Kind = 'node' | 'fetch';

async function serve(kind: Kind, options: WebhookHandlerOptions = {}) {
  const events: WebhookEvent[] = [];
  const errors: unknown[] = [];
  const cancelled = { count: 0 };
  const onEvent = (event: WebhookEvent) => {
    events.push(event);
  };
  const all = { onError: (error: unknown) => errors.push(error), ...options };
  const listener =
    kind === 'node'
      ? createNodeWebhookHandler(onEvent, all)
      : fetchAdapter(createWebhookHandler(onEvent, all), cancelled);
  const server = await startCountingServer(listener);
  closers.push(server.close);
  return { ...server, events, errors, cancelled };
}

describe.each<Kind>(['node', 'fetch'])('the %s handler and a slow body', (kind) => {
  it('answers 408 at the default 10 s although a byte arrives every second, and releases the connection', async () => {
    useFakeClock({ date: false });
    const timers = countSdkTimers('webhooks/');
    const server = await serve(kind);
    const client = await openSlowClient(server.port);
    const seen = server.seen(client);
    await until(() => seen.bytes === 1 && timers() === 1);
    // One byte a second: progress all along, so only a deadline on the whole body can end it.
    for (let second = 1; second < 10; second++) {
      client.send();
      await until(() => seen.bytes === second + 1);
      await vi.advanceTimersByTimeAsync(1_000);
    }
    await vi.advanceTimersByTimeAsync(999);
    expect(client.received()).toBe('');
    expect(timers()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);

    const answer = await client.closed; // the server closed the connection: the client holds nothing
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer).toContain(
      '{"error":"request_timeout","message":"the body did not arrive within 10000 ms"}',
    );
    await until(() => !seen.open);
    // The handler's work ended: no timer left, no listener of its own on the request, nothing called.
    expect(timers.stacks()).toEqual([]);
    expect(seen.request?.listenerCount('data')).toBe(kind === 'node' ? 1 : 2);
    expect(server.events).toEqual([]);
    expect(server.errors).toEqual([]);
    if (kind === 'fetch') expect(server.cancelled.count).toBe(1);
  });

  it('answers 408 to a sender that stops after the head, at a bodyTimeoutMs of its own', async () => {
    useFakeClock({ date: false });
    const timers = countSdkTimers('webhooks/');
    const server = await serve(kind, { bodyTimeoutMs: 250 });
    const client = await openSlowClient(server.port);
    await until(() => timers() === 1);
    await vi.advanceTimersByTimeAsync(249);
    expect(client.received()).toBe('');
    await vi.advanceTimersByTimeAsync(1);
    expect(await client.closed).toContain('the body did not arrive within 250 ms');
    await until(() => !server.seen(client).open);
  });

  it('does not let many slow clients pile up: each is answered and dropped at its deadline', async () => {
    useFakeClock({ date: false });
    const timers = countSdkTimers('webhooks/');
    const server = await serve(kind, { bodyTimeoutMs: 1_000 });
    const clients = await Promise.all(Array.from({ length: 40 }, () => openSlowClient(server.port)));
    await until(() => clients.every((client) => server.seen(client).request !== undefined));
    expect(timers()).toBe(40);
    expect(clients.every((client) => server.seen(client).open)).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    const answers = await Promise.all(clients.map((client) => client.closed));
    expect(answers.every((answer) => answer.startsWith('HTTP/1.1 408 '))).toBe(true);
    await until(() => clients.every((client) => !server.seen(client).open));
    expect(timers.stacks()).toEqual([]);
  });

  it('answers a PUT whose body never ends 405 and closes its connection, within bodyTimeoutMs', async () => {
    useFakeClock({ date: false });
    const server = await serve(kind, { bodyTimeoutMs: 250 });
    const client = await openSlowClient(server.port, 150, 'PUT');
    await until(() => server.seen(client).request !== undefined);
    await vi.advanceTimersByTimeAsync(250);
    const answer = await client.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 405 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    await until(() => !server.seen(client).open);
    expect(server.errors).toEqual([]);
  });

  it('clears the deadline once a body has arrived in time', async () => {
    useFakeClock({ date: false });
    const timers = countSdkTimers('webhooks/');
    const server = await serve(kind);
    const body = validJson.padEnd(150, ' ');
    const client = await openSlowClient(server.port, body.length);
    await until(() => timers() === 1);
    await vi.advanceTimersByTimeAsync(9_999);
    client.sendText(body.slice(1));
    await until(() => client.received().includes('}'));
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(server.events).toEqual([validEvent]);
    expect(timers.stacks()).toEqual([]);
  });
});

describe('the bodyTimeoutMs option', () => {
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '10' as unknown as number])(
    'refuses %s at creation, in both handlers',
    (bodyTimeoutMs) => {
      for (const create of [createWebhookHandler, createNodeWebhookHandler]) {
        expect(() => create(() => {}, { bodyTimeoutMs })).toThrow(ConfigurationError);
        expect(() => create(() => {}, { bodyTimeoutMs })).toThrow(
          /`bodyTimeoutMs` must be an integer from 1/,
        );
      }
    },
  );

  it('accepts setTimeout’s largest delay', () => {
    expect(() => createWebhookHandler(() => {}, { bodyTimeoutMs: 2 ** 31 - 1 })).not.toThrow();
  });
});

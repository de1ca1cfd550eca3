import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, request } from 'node:http';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { MetricError } from '../../src/core/errors.js';
import {
  createNodeWebhookHandler,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
  type WebhookEvent,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
import { encode, invalidBodies, validEvent, validJson } from './fixtures.js';
import {
  chain,
  jsonParser,
  postChunked,
  rawParser,
  skippingParser,
  startServer,
  swallowingReader,
  textParser,
} from './node-server.js';

const servers: { close: () => Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  vi.restoreAllMocks();
});

/** A server whose only route is the handler (optionally behind Express-style middleware). */
async function serve(
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

const postJson = (url: string, body: BodyInit, headers?: HeadersInit) =>
  fetch(url, { method: 'POST', body, headers });

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

describe('createNodeWebhookHandler: size cap', () => {
  it('accepts exactly maxBodyBytes and refuses one byte more', async () => {
    const { url, events } = await serve(undefined, { maxBodyBytes: 300 });
    expect((await postJson(url, validJson.padEnd(300, ' '))).status).toBe(200);
    const response = await postJson(url, validJson.padEnd(301, ' '));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: 'payload_too_large',
      message: 'the body is larger than 300 bytes',
    });
    expect(events).toHaveLength(1);
  });

  it('refuses a large declared Content-Length with 413 and closes the connection', async () => {
    const { url } = await serve();
    const response = await postJson(url, 'x'.repeat(5_000_000));
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
  });

  it('answers 413 on the declared Content-Length alone, before any byte arrives', async () => {
    const req = Object.assign(fakeRequest('POST'), {
      headers: { 'content-length': '65537' },
      pause: vi.fn(),
    });
    const { res, done } = fakeResponse();
    createNodeWebhookHandler(() => {})(req, res);
    await done; // the fake request never sends data: only the header can end this
    expect(res.statusCode).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(req.pause).toHaveBeenCalled();
    expect(req.listenerCount('data')).toBe(0);
  });

  it('stops reading a chunked body past the cap and answers 413', async () => {
    const received: number[] = [];
    const handler = createNodeWebhookHandler(() => {}, { maxBodyBytes: 10_000 });
    const server = await startServer((req, res) => {
      let bytes = 0;
      req.on('data', (chunk: Buffer) => {
        bytes += chunk.byteLength;
      });
      res.on('finish', () => received.push(bytes));
      handler(req, res);
    });
    servers.push(server);
    // 400 MB offered; the answer must come long before that is sent.
    const result = await postChunked(server.url, new Uint8Array(16_384).fill(0x20), 25_000);
    expect(result.status).toBe(413);
    expect(result.written).toBeLessThan(50_000_000);
    expect(received[0]).toBeLessThan(1_000_000);
  });
});

describe('createNodeWebhookHandler: behind Express-style body parsers', () => {
  it.each([
    ['express.json() (req.body is an object)', jsonParser],
    ['express.raw() (req.body is a Buffer)', rawParser],
    ['express.text() (req.body is a string)', textParser],
    ['a parser that skipped the body (req.body = {}, stream unread)', skippingParser],
  ])('works after %s', async (_name, parser) => {
    const { url, events } = await serve(undefined, { before: [parser] });
    const response = await postJson(url, validJson, { 'content-type': 'application/json' });
    expect(response.status).toBe(200);
    expect(events).toEqual([validEvent]);
  });

  it('leaves the size of a body a parser already read to that parser: maxBodyBytes does not apply', async () => {
    const { url, events } = await serve(undefined, { before: [rawParser], maxBodyBytes: 100 });
    expect(validJson.length).toBeGreaterThan(100);
    const response = await postJson(url, validJson);
    expect(response.status).toBe(200);
    expect(events).toEqual([validEvent]);
  });

  it('answers 400 for a pre-parsed body that is not an event', async () => {
    const { url, events } = await serve(undefined, { before: [jsonParser] });
    const response = await postJson(url, JSON.stringify({ ...validEvent, new_score: '64' }));
    expect(response.status).toBe(400);
    expect((await response.json()).message).toContain('new_score: expected an integer, got string "64"');
    expect(events).toEqual([]);
  });

  it('answers 500 and reports when another middleware consumed the body and kept it', async () => {
    const { url, events, errors } = await serve(undefined, { before: [swallowingReader] });
    const response = await postJson(url, validJson);
    expect(response.status).toBe(500);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(MetricError);
    expect(String(errors[0])).toContain('already read');
    // What to do in each framework that reads bodies itself.
    expect(String(errors[0])).toMatch(/express\.json\(\).*onRequest hook.*ctx\.request\.rawBody/);
    expect(events).toEqual([]);
  });

  it('answers the request itself and never calls next', async () => {
    const next = vi.fn();
    const { res, done } = fakeResponse();
    const handler = createNodeWebhookHandler(() => {});
    handler(fakeRequest('GET'), res, next);
    await done;
    expect(res.statusCode).toBe(405);
    expect(next).not.toHaveBeenCalled();
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

describe('createNodeWebhookHandler: broken streams and responses', () => {
  it('answers 400 when the request stream errors, and never calls the callback', async () => {
    const onEvent = vi.fn();
    const req = fakeRequest('POST');
    const { res, done } = fakeResponse();
    createNodeWebhookHandler(onEvent)(req, res);
    req.emit('data', encode(validJson.slice(0, 10)));
    req.emit('error', new Error('ECONNRESET'));
    await done;
    expect(res.statusCode).toBe(400);
    expect(onEvent).not.toHaveBeenCalled();
    // A later error must not crash: the handler keeps an 'error' listener.
    expect(() => req.emit('error', new Error('again'))).not.toThrow();
  });

  it('answers 400 when the stream closes before its end', async () => {
    const req = fakeRequest('POST');
    const { res, done } = fakeResponse();
    createNodeWebhookHandler(() => {})(req, res);
    req.emit('data', encode('{'));
    req.emit('close');
    await done;
    expect(res.statusCode).toBe(400);
  });

  it('reads string chunks (after req.setEncoding)', async () => {
    const onEvent = vi.fn();
    const req = fakeRequest('POST');
    const { res, done } = fakeResponse();
    createNodeWebhookHandler(onEvent)(req, res);
    req.emit('data', validJson.slice(0, 20));
    req.emit('data', validJson.slice(20));
    req.emit('end');
    await done;
    expect(res.statusCode).toBe(200);
    expect(onEvent).toHaveBeenCalledWith(validEvent, { req });
  });

  it('reads a request paused before it was handed over: 200, not 408', async () => {
    const { url, events } = await serve(() => {}, {
      bodyTimeoutMs: 60_000,
      before: [
        (req, _res, next) => {
          req.pause();
          next();
        },
      ],
    });
    const response = await postJson(url, validJson, { 'content-type': 'application/json' });
    expect(response.status).toBe(200);
    expect(events).toEqual([validEvent]);
  });

  it('answers 400 for a chunk that is neither bytes nor text (an object-mode stream)', async () => {
    const req = fakeRequest('POST');
    const { res, done } = fakeResponse();
    createNodeWebhookHandler(() => {})(req, res);
    req.emit('data', { not: 'bytes' });
    await done;
    expect(res.statusCode).toBe(400);
  });

  it('writes nothing when the response was already sent, and reports that the sender missed its answer', async () => {
    const errors: unknown[] = [];
    const req = fakeRequest('GET');
    const res = { statusCode: 200, headersSent: true, setHeader: vi.fn(), end: vi.fn() };
    createNodeWebhookHandler(() => {}, { onError: (error) => errors.push(error) })(req, res);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(res.end).not.toHaveBeenCalled();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(MetricError);
    expect(String(errors[0])).toContain(
      'other code answered the request first, so the sender never got this 405',
    );
  });

  it('reports a framework that answers on its own while the event is handled (Koa without ctx.respond = false)', async () => {
    const events: WebhookEvent[] = [];
    const errors: unknown[] = [];
    const handler = createNodeWebhookHandler((event) => void events.push(event), {
      onError: (error) => errors.push(error),
    });
    const server = await startServer((req, res) => {
      handler(req, res);
      // What Koa does once its middleware returned without setting a body.
      res.statusCode = 404;
      res.end('Not Found');
    });
    servers.push(server);
    const response = await postJson(server.url, validJson);
    expect(response.status).toBe(404);
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(String(errors[0])).toContain('the sender never got this 200');
    expect(String(errors[0])).toContain('ctx.respond = false');
    expect(events).toEqual([validEvent]);
  });

  it('reports a response object that throws, without an unhandled rejection', async () => {
    const errors: unknown[] = [];
    const res = {
      statusCode: 200,
      setHeader: () => {
        throw new Error('socket gone');
      },
      end: vi.fn(),
    };
    createNodeWebhookHandler(() => {}, { onError: (error) => errors.push(error) })(fakeRequest('GET'), res);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(errors.map(String)).toEqual(['Error: socket gone']);
  });

  it('answers a request whose method is missing with 405', async () => {
    const req = Object.assign(fakeRequest('POST'), { method: undefined });
    const { res, done } = fakeResponse();
    createNodeWebhookHandler(() => {})(req, res);
    await done;
    expect(res.statusCode).toBe(405);
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

/** A request stream made by hand, to drive events the network cannot produce on demand. */
function fakeRequest(method: string): NodeWebhookRequest & EventEmitter {
  return Object.assign(new EventEmitter(), { method, headers: {} });
}

function fakeResponse() {
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

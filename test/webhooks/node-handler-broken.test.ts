// createNodeWebhookHandler facing request streams that break and responses others answered or broke.
import { describe, expect, it, vi } from 'vitest';
import { MetricError } from '../../src/core/errors.js';
import { createNodeWebhookHandler, type WebhookEvent } from '../../src/webhooks/index.js';
import { encode, validEvent, validJson } from './fixtures.js';
import {
  closeServersAfterEach,
  fakeRequest,
  fakeResponse,
  postJson,
  serve,
  servers,
} from './node-handler-setup.js';
import { startServer } from './node-server.js';

closeServersAfterEach();

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
    await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 10_000, interval: 5 });
    expect(res.end).not.toHaveBeenCalled();
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
    await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 10_000, interval: 5 });
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
    await vi.waitFor(() => expect(errors.map(String)).toEqual(['Error: socket gone']), {
      timeout: 10_000,
      interval: 5,
    });
  });

  it('answers a request whose method is missing with 405', async () => {
    const req = Object.assign(fakeRequest('POST'), { method: undefined });
    const { res, done } = fakeResponse();
    createNodeWebhookHandler(() => {})(req, res);
    await done;
    expect(res.statusCode).toBe(405);
  });
});

// createNodeWebhookHandler's body: its size cap, and bodies Express-style parsers read first.
import { describe, expect, it, vi } from 'vitest';
import { MetricError } from '../../src/core/errors.js';
import { createNodeWebhookHandler } from '../../src/webhooks/index.js';
import { validEvent, validJson } from './fixtures.js';
import {
  closeServersAfterEach,
  fakeRequest,
  fakeResponse,
  postJson,
  serve,
  servers,
} from './node-handler-setup.js';
import {
  jsonParser,
  postChunked,
  rawParser,
  skippingParser,
  startServer,
  swallowingReader,
  textParser,
} from './node-server.js';

closeServersAfterEach();

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

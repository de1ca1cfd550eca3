import { request } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createNodeWebhookHandler,
  createWebhookHandler,
  type WebhookEvent,
} from '../../src/webhooks/index.js';
import { validEvent, validJson } from './fixtures.js';
import { startServer } from './node-server.js';

/*
 * A sender, or a reverse proxy in front of the receiver, may compress the body and say so in
 * Content-Encoding. Express's body parsers undo gzip and deflate; the receivers must too, or answer
 * a clear 415, never a 400 about UTF-8 that tells the sender to give up.
 */

const servers: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A Node receiver on a real socket that records the events it was given. */
async function nodeReceiver() {
  const events: WebhookEvent[] = [];
  const server = await startServer(
    createNodeWebhookHandler((event) => void events.push(event), { onError: () => {} }),
  );
  servers.push(server);
  return { url: server.url, events };
}

/** POSTs `body` with the given Content-Encoding, chunked (as a proxy forwards it), over a fresh socket. */
function postEncoded(url: string, body: Uint8Array, contentEncoding: string) {
  return new Promise<{ status?: number; headers: Record<string, unknown>; body: string }>((resolve) => {
    const headers = { 'content-type': 'application/json', 'content-encoding': contentEncoding };
    const req = request(url, { method: 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (part: string) => {
        text += part;
      });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
    });
    req.on('error', () => {});
    req.end(body);
  });
}

const fetchDelivery = (body: Uint8Array, contentEncoding: string) =>
  new Request('http://localhost/hooks/metric', {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { 'content-encoding': contentEncoding },
  });

describe('the Node receiver and Content-Encoding', () => {
  it.each([
    ['gzip', gzipSync(validJson)],
    ['x-gzip', gzipSync(validJson)],
    ['deflate', deflateSync(validJson)],
    ['GZip ', gzipSync(validJson)],
    ['identity', new TextEncoder().encode(validJson)],
  ])('decodes a %j body and delivers the event', async (coding, body) => {
    const { url, events } = await nodeReceiver();
    const answer = await postEncoded(url, body, coding);
    expect(answer.status).toBe(200);
    expect(events).toEqual([validEvent]);
  });

  it('caps the decoded size: a small gzip that expands past maxBodyBytes gets 413', async () => {
    const { url, events } = await nodeReceiver();
    const bomb = gzipSync(JSON.stringify({ ...validEvent, pad: ' '.repeat(20_000_000) }));
    expect(bomb.byteLength).toBeLessThan(65_536);
    const answer = await postEncoded(url, bomb, 'gzip');
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(events).toEqual([]);
  });

  it('caps the bytes sent too: a gzip larger than maxBodyBytes gets 413, however little it decodes to', async () => {
    // Stored, not compressed: the gzip is a little larger than the event it holds.
    const stored = gzipSync(validJson, { level: 0 });
    const maxBodyBytes = validJson.length + 4;
    expect(stored.byteLength).toBeGreaterThan(maxBodyBytes);
    const events: WebhookEvent[] = [];
    const server = await startServer(
      createNodeWebhookHandler((event) => void events.push(event), { maxBodyBytes, onError: () => {} }),
    );
    servers.push(server);
    expect((await postEncoded(server.url, stored, 'gzip')).status).toBe(413);
    const handler = createWebhookHandler((event) => void events.push(event), { maxBodyBytes });
    expect((await handler(fetchDelivery(stored, 'gzip'))).status).toBe(413);
    expect(events).toEqual([]);
    // Within the cap, the same body is read.
    const roomy = createWebhookHandler((event) => void events.push(event), {
      maxBodyBytes: stored.byteLength,
    });
    expect((await roomy(fetchDelivery(stored, 'gzip'))).status).toBe(200);
  });

  it('answers 400 naming the coding when the gzip is corrupt or cut short', async () => {
    const { url } = await nodeReceiver();
    for (const body of [new TextEncoder().encode(validJson), gzipSync(validJson).subarray(0, 20)]) {
      const answer = await postEncoded(url, body, 'gzip');
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({
        error: 'invalid_payload',
        message: 'invalid webhook payload: the body could not be decoded from gzip',
      });
    }
  });

  it('answers 415 with Accept-Encoding for a coding it cannot undo', async () => {
    const { url, events } = await nodeReceiver();
    const answer = await postEncoded(url, brotliCompressSync(validJson), 'br');
    expect(answer.status).toBe(415);
    expect(answer.headers['accept-encoding']).toBe('gzip, deflate');
    expect(JSON.parse(answer.body)).toEqual({
      error: 'unsupported_encoding',
      message: 'the Content-Encoding "br" is not supported; send gzip, deflate or identity',
    });
    expect(events).toEqual([]);
  });
});

describe('the Fetch receiver and Content-Encoding', () => {
  it('decodes gzip and deflate bodies', async () => {
    const events: WebhookEvent[] = [];
    const handler = createWebhookHandler((event) => void events.push(event));
    expect((await handler(fetchDelivery(gzipSync(validJson), 'gzip'))).status).toBe(200);
    expect((await handler(fetchDelivery(deflateSync(validJson), 'deflate'))).status).toBe(200);
    expect(events).toEqual([validEvent, validEvent]);
  });

  it.each([
    ['415 for an unknown coding', { 'content-encoding': 'br' }, 415],
    ['413 for a declared length past maxBodyBytes', { 'content-length': '5000' }, 413],
    // The bytes sent count against the cap as well as the decoded ones: a compressed length past it is refused.
    [
      '413 for a gzip body declared past maxBodyBytes',
      { 'content-length': '5000', 'content-encoding': 'gzip' },
      413,
    ],
  ])(
    'answers %s, waiting no longer than bodyTimeoutMs for the body to be let go',
    async (_, headers, status) => {
      // A body whose cancel never settles: the answer waits for it no longer than the body's own deadline.
      const body = new ReadableStream<Uint8Array>({
        pull: () => new Promise(() => {}),
        cancel: () => new Promise(() => {}),
      });
      const delivery = new Request('http://localhost/hooks/metric', {
        method: 'POST',
        body,
        headers,
        duplex: 'half',
      } as RequestInit);
      const handler = createWebhookHandler(() => {}, { maxBodyBytes: 1_000, bodyTimeoutMs: 50 });
      expect((await handler(delivery)).status).toBe(status);
    },
  );

  it('answers 415 for an unknown coding and cancels the unread body', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(brotliCompressSync(validJson)),
      cancel: () => {
        cancelled = true;
      },
    });
    const delivery = new Request('http://localhost/hooks/metric', {
      method: 'POST',
      body,
      headers: { 'content-encoding': 'br' },
      duplex: 'half',
    } as RequestInit);
    const response = await createWebhookHandler(() => {})(delivery);
    expect(response.status).toBe(415);
    expect(response.headers.get('accept-encoding')).toBe('gzip, deflate');
    expect(cancelled).toBe(true);
  });
});

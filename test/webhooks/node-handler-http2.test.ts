// createNodeWebhookHandler on Node's HTTP/2 compatibility API (http2.createServer, Fastify's http2):
// its refusals leave out `connection: close`, a header HTTP/2 forbids.
import {
  type ClientHttp2Session,
  connect,
  createServer,
  Http2ServerResponse,
  type ServerHttp2Stream,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNodeWebhookHandler } from '../../src/webhooks/index.js';
import { validJson } from './fixtures.js';

const ends: (() => void)[] = [];
afterEach(() => {
  for (const end of ends.splice(0)) end();
  vi.restoreAllMocks();
});

/** An HTTP/2 server whose only route is the handler, and a session connected to it. */
async function serveHttp2(
  streams = new Set<ServerHttp2Stream>(),
  bodyTimeoutMs?: number,
): Promise<ClientHttp2Session> {
  const options = { maxBodyBytes: 1000, onError: () => {}, ...(bodyTimeoutMs && { bodyTimeoutMs }) };
  const server = createServer(createNodeWebhookHandler(() => {}, options));
  server.on('stream', (stream) => {
    streams.add(stream);
    stream.on('close', () => streams.delete(stream));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const session = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  ends.push(() => {
    session.destroy();
    server.close();
  });
  return session;
}

/** Sends a request (its body ended, or left open as a sender past the cap may) and reads the answer. */
function send(session: ClientHttp2Session, headers: Record<string, string>, body?: string, end = true) {
  return new Promise<{ status: unknown; connection: unknown; body: string }>((resolve, reject) => {
    const stream = session.request(headers);
    let status: unknown;
    let connection: unknown;
    let text = '';
    stream.on('response', (answer) => {
      status = answer[':status'];
      connection = answer.connection;
    });
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      text += chunk;
    });
    stream.on('end', () => resolve({ status, connection, body: text }));
    stream.on('error', reject);
    if (body !== undefined) stream.write(body);
    if (end) stream.end();
  });
}

describe('createNodeWebhookHandler over HTTP/2', () => {
  it('answers 405, 413 and 415 without a connection header, and the session serves the next delivery', async () => {
    const setHeader = vi.spyOn(Http2ServerResponse.prototype, 'setHeader');
    const session = await serveHttp2();
    const post = { ':method': 'POST', ':path': '/hooks' };
    const refused = [
      await send(session, { ':method': 'GET', ':path': '/hooks' }),
      await send(session, { ...post, 'content-length': '5000' }, 'x'.repeat(100), false),
      await send(session, { ...post, 'content-encoding': 'br' }, 'x', false),
    ];
    expect(refused.map((answer) => answer.status)).toEqual([405, 413, 415]);
    expect(refused.map((answer) => answer.connection)).toEqual([undefined, undefined, undefined]);
    // Node drops the header with an UnsupportedWarning (once a process): it must not be set at all.
    expect(setHeader.mock.calls.map(([name]) => name.toLowerCase())).not.toContain('connection');
    expect(refused[2]!.body).toContain('unsupported_encoding');
    expect((await send(session, post, validJson)).status).toBe(200);
  });

  it('ends the stream of a sender past the cap or too slow, which HTTP/1 would disconnect', async () => {
    const open = new Set<ServerHttp2Stream>();
    const session = await serveHttp2(open, 200);
    const post = { ':method': 'POST', ':path': '/hooks' };
    const answers = await Promise.all([
      send(session, post, 'x'.repeat(5_000), false),
      send(session, post, '{"event":', false),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([413, 408]);
    // Neither sender ended its body: only the server's reset lets the streams go.
    await vi.waitFor(() => expect(open.size).toBe(0), { timeout: 10_000 });
    expect((await send(session, post, validJson)).status).toBe(200);
  });
});

import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { type AddressInfo, createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMockApi,
  MOCK_API_KEY,
  MOCK_DOIS,
  type MockServer,
  mockControl,
  startMockServer,
} from '../../src/testing/index.js';
import { smallSizes } from './helpers.js';

const auth = { authorization: `Bearer ${MOCK_API_KEY}` };
let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({ sizes: smallSizes, control: true });
});
afterAll(async () => {
  await server.close();
});

/** A raw request, so the path reaches the server exactly as written. */
function raw(
  path: string,
  headers: Record<string, string> = auth,
  method = 'GET',
): Promise<{ status: number; body: string; allow?: string | undefined; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const options = { host: '127.0.0.1', port: server.port, path, headers, method, agent: false };
    const req = httpRequest(options, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      const { statusCode = 0, headers } = res;
      res.on('end', () => resolve({ status: statusCode, body, allow: headers.allow, headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startMockServer', () => {
  it('listens on 127.0.0.1 at a free port and gives the base URL', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(server.port).toBeGreaterThan(0);
  });

  it('serves the API over a real socket', async () => {
    const response = await fetch(`${server.url}/journals`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toHaveLength(smallSizes.journals);
  });

  it('answers a request line whose full URL cannot be read with a JSON 400, not a dropped connection', async () => {
    for (const target of ['http://a:99999/api/v1/subjects', 'http://[::1/api/v1/subjects']) {
      const answer = await raw(target);
      expect({ target, status: answer.status }).toEqual({ target, status: 400 });
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'bad_request' });
    }
    expect((await raw(`http://127.0.0.1:${server.port}/api/v1/subjects`)).status).toBe(200);
  });

  it('keeps encoded DOIs intact on the wire; a raw slash is another path', async () => {
    for (const doi of MOCK_DOIS) {
      const response = await raw(`/api/v1/papers/${encodeURIComponent(doi)}`);
      expect(JSON.parse(response.body).doi).toBe(doi);
    }
    expect((await raw('/api/v1/papers/10.1000/abc/def')).status).toBe(404);
    expect((await raw('//api/v1/journals')).status).toBe(404);
  });

  it('answers 404 to a path the URL parser would rewrite: dot segments and backslashes are other paths', async () => {
    for (const path of [
      '/api/v1/./journals/1',
      '/api/v1/journals/%2e%2e/journals',
      '/api/v1/x/%2E./journals',
      '/api/v1\\journals\\1',
      '/api/v1/journals/1/.?page=1',
    ]) {
      const response = await raw(path);
      expect([path, response.status]).toEqual([path, 404]);
      expect(JSON.parse(response.body)).toMatchObject({ error: 'not_found' });
      expect(response.headers['x-request-id']).toMatch(/^req_\d{6,}$/);
    }
    // A dot inside a segment is no dot segment: a DOI keeps its dots.
    expect((await raw('/api/v1/journals/1')).status).toBe(200);
    expect((await raw(`/api/v1/papers/${encodeURIComponent(MOCK_DOIS[0])}`)).status).toBe(200);
  });

  it('answers 405 to TRACE, which a Fetch Request cannot carry, as to any other method, on any path', async () => {
    for (const method of ['TRACE', 'PUT']) {
      const response = await raw('/api/v1/subjects', auth, method);
      expect([response.status, response.allow]).toEqual([405, 'GET, HEAD, OPTIONS']);
      expect(JSON.parse(response.body)).toMatchObject({ error: 'method_not_allowed' });
      // Answered by the server itself for TRACE, by the core for PUT: alike to the client.
      expect(response.headers['x-request-id']).toMatch(/^req_\d{6,}$/);
      expect(response.headers['access-control-allow-origin']).toBe('*');
    }
    for (const method of ['TRACE', 'PUT']) {
      const response = await raw('/__mock/reset', { host: `127.0.0.1:${server.port}` }, method);
      expect([method, response.status, response.allow]).toEqual([method, 405, 'POST, OPTIONS']);
    }
  });

  it("answers what Node's parser refuses as it answers everything: JSON, CORS, a request id", async () => {
    /** Sends `text` as is and reads the whole answer: the parser refuses it before any handler runs. */
    const sent = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = createConnection({ host: '127.0.0.1', port: server.port });
        let answer = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => {
          answer += chunk;
        });
        socket.on('end', () => resolve(answer)).on('error', reject);
        socket.write(text);
      });
    const tooLarge = `GET /api/v1/subjects HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`;
    for (const [text, status, error] of [
      [tooLarge, 431, 'request_header_fields_too_large'],
      ['GARBAGE\r\n\r\n', 400, 'bad_request'],
    ] as const) {
      const answer = await sent(text);
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(head).toMatch(/\r\ncontent-type: application\/json\r\n/i);
      expect(head).toMatch(/\r\naccess-control-allow-origin: \*\r\n/i);
      expect(head).toMatch(/\r\nx-request-id: req_\d{6,}\r\n/i);
      expect(head).toMatch(/\r\nconnection: close(\r\n|$)/i);
      expect(JSON.parse(body)).toMatchObject({ error, message: expect.any(String) });
    }
    // CONNECT, which Node hands over as a tunnel: refused as TRACE is, not dropped.
    const connect = await sent('CONNECT 127.0.0.1:80 HTTP/1.1\r\nhost: 127.0.0.1:80\r\n\r\n');
    expect(connect).toMatch(/^HTTP\/1.1 405 [\s\S]*\r\nallow: GET, HEAD, OPTIONS\r\n/);
    expect(JSON.parse(connect.split('\r\n\r\n')[1]!)).toMatchObject({ error: 'method_not_allowed' });
    // An expectation the mock cannot meet: Node's bare 417, answered in JSON as the rest.
    const expect200 = await sent('GET /api/v1/subjects HTTP/1.1\r\nhost: x\r\nexpect: 200-ok\r\n\r\n');
    expect(expect200).toMatch(/^HTTP\/1.1 417 [\s\S]*\r\nx-request-id: req_\d{6,}\r\n/);
    expect(JSON.parse(expect200.split('\r\n\r\n')[1]!)).toMatchObject({ error: 'expectation_failed' });
    // A letter past ASCII sent as it is (`curl "…?q=Müller"`) is told, with the fix.
    const raw8 = await sent(`GET /api/v1/authors?q=M\u00fcller HTTP/1.1\r\nhost: x\r\n\r\n`);
    expect(raw8).toMatch(/^HTTP\/1.1 400 /);
    expect(JSON.parse(raw8.split('\r\n\r\n')[1]!).message).toMatch(/percent-encode it/);
    // The server goes on serving.
    expect((await raw('/api/v1/subjects')).status).toBe(200);
  });

  it('answers garbage on a kept-alive connection after a whole answer, in JSON too', async () => {
    const answers = await new Promise<string>((resolve, reject) => {
      const socket = createConnection({ host: '127.0.0.1', port: server.port });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
        // The first answer is whole (its JSON body ends the chunk): then the garbage.
        if (text.startsWith('HTTP/1.1 200') && text.trimEnd().endsWith(']')) socket.write('GARBAGE\r\n\r\n');
      });
      socket.on('end', () => resolve(text)).on('error', reject);
      socket.write(
        `GET /api/v1/subjects HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${MOCK_API_KEY}\r\n\r\n`,
      );
    });
    expect(answers).toMatch(/^HTTP\/1.1 200 /);
    const refusal = answers.slice(answers.indexOf('HTTP/1.1 400'));
    expect(refusal).toMatch(/^HTTP\/1.1 400 /);
    expect(JSON.parse(refusal.split('\r\n\r\n')[1]!)).toMatchObject({ error: 'bad_request' });
  });

  it('answers a browser preflight', async () => {
    const response = await fetch(`${server.url}/subjects`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' },
    });
    expect(response.status).toBe(204);
  });

  it('drops the connection on a reset fault', async () => {
    server.api.faults.next({ reset: true });
    await expect(raw('/api/v1/subjects')).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect((await raw('/api/v1/subjects')).status).toBe(200);
  });

  it('stops waiting when the client hangs up during a delay', async () => {
    server.api.faults.next({ delayMs: 30_000 });
    const controller = new AbortController();
    const pending = fetch(`${server.url}/subjects`, { headers: auth, signal: controller.signal });
    await expect.poll(() => server.api.faults.pending, { timeout: 5_000 }).toBe(0); // the server has it
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
    await expect.poll(() => server.api.requests.at(-1)?.status, { timeout: 5_000 }).toBe(0);
  });

  it('serves a given api, and close() is idempotent and frees the port', async () => {
    const api = createMockApi({ sizes: smallSizes });
    const own = await startMockServer({ api });
    expect(own.api).toBe(api);
    const response = await fetch(`${own.url}/subjects`, { headers: auth, keepalive: true });
    expect(response.status).toBe(200);
    await Promise.all([own.close(), own.close()]);
    await expect(fetch(`${own.url}/subjects`, { headers: auth })).rejects.toThrow();
  });

  it('reports a port in use', async () => {
    await expect(startMockServer({ port: server.port, sizes: smallSizes })).rejects.toThrow(/EADDRINUSE/);
  });
});

describe('control endpoints and mockControl', () => {
  it('change a score and deliver the event to a subscribed URL', async () => {
    const control = mockControl(server.url);
    const receiver = await startMockServer({ sizes: smallSizes }); // any HTTP server will do as a target
    const hookUrl = `${new URL(receiver.url).origin}/hooks`;
    try {
      expect(await control.subscribe(hookUrl)).toEqual([hookUrl]);
      const journal = server.api.dataset.journal(4)!;
      const { event, deliveries } = await control.updateScore(4, journal.metric_score + 1);
      expect(event).toMatchObject({
        event: 'score_updated',
        journal_id: 4,
        new_score: journal.metric_score + 1,
      });
      expect(deliveries).toEqual([{ url: hookUrl, ok: false, status: 404 }]);
      expect(receiver.api.requests).toEqual([
        { method: 'POST', path: '/hooks', status: 404, requestId: 'req_000001' },
      ]);
      expect(await control.unsubscribe(hookUrl)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('queue faults and reset the mock', async () => {
    const control = mockControl(server.url);
    expect(await control.fault({ status: 502 })).toBe(1);
    expect((await fetch(`${server.url}/subjects`, { headers: auth })).status).toBe(502);
    await control.updateScore(6, server.api.dataset.journal(6)!.metric_score + 1);
    await control.reset();
    expect(server.api.requests).toEqual([]);
  });

  it('explain bad requests', async () => {
    const control = mockControl(server.url);
    await expect(control.updateScore(999_999, 1)).rejects.toThrow(/No journal with id 999999/);
    // An id that is no integer is a bad request (400), not a journal the mock lacks (404).
    const fractional = await fetch(new URL('/__mock/score', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ journal_id: 7.5, new_score: 81 }),
    });
    expect(fractional.status).toBe(400);
    await expect(control.updateScore(1, -4)).rejects.toThrow(/non-negative integer/);
    await expect(control.fault({ status: 42 })).rejects.toThrow(/200 to 599/);
    await expect(control.subscribe('not a url')).rejects.toThrow(/absolute http/);
  });

  it('name the address when what answers there is not the mock', async () => {
    const other = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><h1>Not Found</h1>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const { port } = other.address() as AddressInfo;
    try {
      await expect(mockControl(`http://127.0.0.1:${port}/api/v1`).reset()).rejects.toThrow(
        `Mock control POST /__mock/reset failed: status 404 with a body that is not JSON; is http://127.0.0.1:${port} the mock server?`,
      );
    } finally {
      other.close();
    }
  });

  it('are off unless asked for', async () => {
    const plain = await startMockServer({ sizes: smallSizes });
    try {
      await expect(mockControl(plain.url).reset()).rejects.toThrow(
        /control endpoints are off.*control: true/,
      );
      plain.api.faults.next({ status: 503 });
      await expect(mockControl(plain.url).fault({ status: 500 })).rejects.toThrow(/control: true/);
      expect([plain.api.faults.pending, plain.api.requests]).toEqual([1, []]); // neither faulted nor logged
      // Off means off, however the request comes: no guard of endpoints that are not there.
      for (const headers of [{}, { origin: 'http://page.example' }] as Array<Record<string, string>>) {
        const answer = await fetch(new URL('/__mock/reset', plain.url), {
          method: 'POST',
          headers,
          body: '{}',
        });
        expect(answer.status).toBe(404);
        expect(((await answer.json()) as { message: string }).message).toMatch(/control endpoints are off/);
      }
    } finally {
      await plain.close();
    }
  });
});

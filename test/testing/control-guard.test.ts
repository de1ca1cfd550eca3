/**
 * The control endpoints of a real mock server on 127.0.0.1, against what a web page can send: a
 * cross-origin request (CSRF), a `text/plain` "simple" POST, a preflight, and a request whose `Host`
 * is an attacker's DNS name resolving to 127.0.0.1 (DNS rebinding). Requests go out on node:http,
 * which sends the `Host` and `Origin` given, as a browser would for such a page.
 */
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { MOCK_API_KEY, type MockServer, startMockServer } from '../../src/testing/index.js';
import { allowedHosts, refuseControl } from '../../src/testing/server-guard.js';
import { smallSizes } from './helpers.js';

const servers: MockServer[] = [];
let stderr: MockInstance<typeof process.stderr.write>;
beforeEach(() => {
  // A refused page is reported on stderr; kept out of the test output, and read where it matters.
  stderr = vi.spyOn(process.stderr, 'write').mockReturnValue(true);
});
afterEach(async () => {
  stderr.mockRestore();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(controlOrigins?: readonly string[]) {
  const server = await startMockServer({
    sizes: smallSizes,
    control: true,
    ...(controlOrigins && { controlOrigins }),
  });
  servers.push(server);
  return server;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends one request to the server's port with exactly these headers (Host included). */
function send(
  server: MockServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, method, path, headers, setHost: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const json = { 'content-type': 'application/json' };
const fault = JSON.stringify({ status: 503 });
const hostOf = (server: MockServer) => `127.0.0.1:${server.port}`;
/** A browser's preflight from `origin` for `method` with `headers`. */
const preflightOf = (server: MockServer, path: string, origin: string, method: string, headers: string) =>
  send(server, 'OPTIONS', path, {
    host: hostOf(server),
    origin,
    'access-control-request-method': method,
    'access-control-request-headers': headers,
  });
/** POSTs a fault as JSON with `Host` set to the mock's, unless `headers` says otherwise. */
const postFault = (server: MockServer, headers: Record<string, string> = {}) =>
  send(server, 'POST', '/__mock/faults', { host: hostOf(server), ...json, ...headers }, fault);

describe('control endpoints: requests they accept', () => {
  it.each(['127.0.0.1', 'localhost', '[::1]', 'LOCALHOST'])(
    'accepts Host %s with the right port, from no page',
    async (name) => {
      const server = await start();
      const answer = await postFault(server, { host: `${name}:${server.port}` });
      expect(answer.status).toBe(202);
      expect(server.api.faults.pending).toBe(1);
    },
  );

  it('accepts a request from a page on the mock’s own origin', async () => {
    const server = await start();
    const origin = `http://${hostOf(server)}`;
    const answer = await postFault(server, { origin });
    expect(answer.status).toBe(202);
  });

  it('accepts JSON with parameters, and a body-less POST /__mock/reset that says JSON', async () => {
    const server = await start();
    server.api.webhooks.subscribe('http://127.0.0.1:9/hooks');
    const typed = { host: hostOf(server), 'content-type': 'Application/JSON; charset=utf-8' };
    expect((await send(server, 'POST', '/__mock/faults', typed, fault)).status).toBe(202);
    expect((await send(server, 'POST', '/__mock/reset', { host: hostOf(server), ...json })).status).toBe(204);
    expect(server.api.webhooks.urls).toEqual([]);
  });

  it('accepts an origin the caller trusts through controlOrigins, preflight included', async () => {
    const server = await start(['http://localhost:5173/some/page']);
    const origin = 'http://localhost:5173';
    const preflight = await preflightOf(server, '/__mock/faults', origin, 'POST', 'content-type');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    const answer = await postFault(server, { origin });
    expect(answer.status).toBe(202);
    const other = await postFault(server, { origin: 'http://localhost:5174' });
    expect(other.status).toBe(403);
  });
});

describe('control endpoints: CSRF and DNS rebinding refused, nothing done', () => {
  it('refuses a controlOrigins entry that is not an http(s) origin, at start', async () => {
    for (const entry of ['localhost:5173', 'not a url', 'file:///tmp/page.html']) {
      await expect(startMockServer({ controlOrigins: [entry] })).rejects.toThrow(/is not an origin such as/);
    }
  });

  it.each([
    ['a foreign page', 'http://evil.example'],
    ['another port of loopback', 'http://127.0.0.1:1'],
    ['a sandboxed page (Origin: null)', 'null'],
  ])('refuses a request from %s', async (_name, origin) => {
    const server = await start();
    const answer = await postFault(server, { origin });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'forbidden', message: /other origins/ });
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    // Identified as every answer is, for the log a user reads.
    expect(answer.headers['x-request-id']).toMatch(/^req_\d{6,}$/);
    expect(server.api.faults.pending).toBe(0);
  });

  it('says on stderr, once per page, which page was refused and how to allow it', async () => {
    const server = await start(['http://localhost:5173']);
    const page = 'http://localhost:5174';
    for (let attempt = 0; attempt < 2; attempt++) {
      expect((await preflightOf(server, '/__mock/faults', page, 'POST', 'content-type')).status).toBe(403);
    }
    expect((await postFault(server, { origin: 'http://localhost:5173' })).status).toBe(202);
    expect(stderr.mock.calls).toEqual([
      [
        `scholarly-metrics mock: refused a control request from the web page ${page} (the page sees a CORS error). To allow it: startMockServer({ controlOrigins: ['${page}'] }), or --control-origin ${page} on the command line.\n`,
      ],
    ]);
    await postFault(server, { origin: 'null' });
    expect(stderr.mock.calls[1]?.[0]).toMatch(/a web page \(Origin: null; the page sees a CORS error\)/);
  });

  it('refuses a cross-site request that carries no Origin (Sec-Fetch-Site)', async () => {
    const server = await start();
    const answer = await send(server, 'GET', '/__mock/webhooks', {
      host: hostOf(server),
      'sec-fetch-site': 'cross-site',
    });
    expect(answer.status).toBe(403);
  });

  it.each([
    ['text/plain', 'text/plain;charset=UTF-8'],
    ['form data', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['no content type', undefined],
  ])('refuses a POST sent as %s (what a page can send with no preflight)', async (_name, type) => {
    const server = await start();
    server.api.webhooks.subscribe('http://127.0.0.1:9/hooks');
    const headers: Record<string, string> = { host: hostOf(server), ...(type && { 'content-type': type }) };
    for (const [path, body] of [
      ['/__mock/reset', undefined],
      ['/__mock/webhooks', JSON.stringify({ url: 'http://attacker.example/steal' })],
      ['/__mock/faults', fault],
    ] as const) {
      const answer = await send(server, 'POST', path, headers, body);
      expect(answer.status).toBe(415);
      expect(JSON.parse(answer.body).message).toMatch(/application\/json/);
      // A page the mock allows reads why it was refused: the answer carries CORS and a request id.
      expect(answer.headers['access-control-allow-origin']).toBe('*');
      expect(answer.headers['x-request-id']).toMatch(/^req_\d{6,}$/);
    }
    expect(server.api.webhooks.urls).toEqual(['http://127.0.0.1:9/hooks']);
    expect(server.api.faults.pending).toBe(0);
  });

  it('refuses a preflight from a foreign page, without CORS approval', async () => {
    const server = await start();
    const answer = await preflightOf(
      server,
      '/__mock/webhooks',
      'http://evil.example',
      'POST',
      'content-type',
    );
    expect(answer.status).toBe(403);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.headers['access-control-allow-methods']).toBeUndefined();
  });

  it.each([
    ['an attacker’s name (DNS rebinding)', (port: number) => `rebind.attacker.example:${port}`],
    ['loopback with another port', (port: number) => `127.0.0.1:${port + 1}`],
    ['loopback without the port', () => '127.0.0.1'],
    ['an empty Host', () => ''],
  ])('refuses Host %s, even same-origin to it and sent as JSON', async (_name, host) => {
    const server = await start();
    const name = host(server.port);
    const headers = { host: name, origin: `http://${name}`, ...json };
    const subscribe = JSON.stringify({ url: 'http://attacker.example/steal' });
    const answer = await send(server, 'POST', '/__mock/webhooks', headers, subscribe);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).message).toMatch(/addressed to the mock itself/);
    expect((await send(server, 'GET', '/__mock/webhooks', headers)).status).toBe(403);
    expect(server.api.webhooks.urls).toEqual([]);
  });
});

describe('what a request sent, quoted in a refusal', () => {
  it('escapes a C1 control in the Origin it names, over a real socket', async () => {
    const server = await start();
    const answer = await postFault(server, { origin: 'http://evil.example\u009b2J' });
    expect(answer.status).toBe(403);
    const { message } = JSON.parse(answer.body) as { message: string };
    expect(message).not.toContain('\u009b');
    expect(message).toContain('\\u009b');
  });

  it('escapes bidi marks and line separators in the Host, Origin and content-type it names', () => {
    const allowed = { port: 1, hosts: new Set(['127.0.0.1:1']), origins: new Set<string>() };
    for (const sent of ['\u202e', '\u2028', '\u0085']) {
      const refusals = [
        refuseControl('GET', { host: `a${sent}b` }, allowed),
        refuseControl('GET', { host: '127.0.0.1:1', origin: `http://a${sent}b` }, allowed),
        refuseControl('POST', { host: '127.0.0.1:1', 'content-type': `text/a${sent}b` }, allowed),
      ];
      for (const refusal of refusals) {
        expect(refusal?.status).toBeGreaterThanOrEqual(400);
        expect(refusal?.message).not.toContain(sent);
      }
    }
  });
});

describe('the API endpoints keep answering every page, as before', () => {
  it('serves a cross-origin GET with CORS headers, and approves its preflight', async () => {
    const server = await start();
    const path = `${new URL(server.url).pathname}/subjects`;
    const origin = 'http://localhost:5173';
    const preflight = await preflightOf(server, path, origin, 'GET', 'authorization');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    const answer = await send(server, 'GET', path, {
      host: hostOf(server),
      origin,
      authorization: `Bearer ${MOCK_API_KEY}`,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('a mock bound to every interface (checked without binding one)', () => {
  const allowed = { port: 4010, hosts: allowedHosts('0.0.0.0', 4010, '0.0.0.0'), origins: new Set<string>() };
  const get = (host: string, localAddress: string) =>
    refuseControl('GET', { host }, allowed, localAddress)?.status ?? 'accepted';

  it('accepts the interface address a request came in on, and loopback', () => {
    expect(get('192.168.1.20:4010', '192.168.1.20')).toBe('accepted');
    expect(get('192.168.1.20:4010', '::ffff:192.168.1.20')).toBe('accepted');
    expect(get('[fd00::7]:4010', 'fd00::7')).toBe('accepted');
    expect(get('localhost:4010', '127.0.0.1')).toBe('accepted');
  });

  it('refuses any name, another address, or another port', () => {
    expect(get('rebind.attacker.example:4010', '192.168.1.20')).toBe(403);
    expect(get('192.168.1.21:4010', '192.168.1.20')).toBe(403);
    expect(get('192.168.1.20:80', '192.168.1.20')).toBe(403);
  });
});

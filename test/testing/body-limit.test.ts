/**
 * The mock server reads at most 1 MiB of a request body: a larger one is answered 413 and the rest is
 * never read. Measured by what the client managed to write before the server stopped taking bytes:
 * the server cannot have buffered more than that.
 */
import { type IncomingHttpHeaders, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MOCK_API_KEY, type MockServer, startMockServer } from '../../src/testing/index.js';
import { postChunked } from '../webhooks/node-server.js';
import { smallSizes } from './helpers.js';

const MiB = 1_048_576;
const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start() {
  const server = await startMockServer({ sizes: smallSizes, control: true });
  servers.push(server);
  return server;
}

const controlUrl = (server: MockServer, path: string) => `${new URL(server.url).origin}/__mock/${path}`;

describe('request bodies past 1 MiB', () => {
  it('a 1 GiB chunked POST is answered 413 (or cut) after a few MiB, never read whole', async () => {
    const server = await start();
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const chunks = (1024 * MiB) / chunk.byteLength;
    const result = await postChunked(controlUrl(server, 'faults'), chunk, chunks, {
      'content-type': 'application/json',
    });
    // Kernel socket buffers on both sides hold a few MiB more than the server read; far from 1 GiB.
    expect(result.written).toBeLessThan(64 * MiB);
    expect(result.status === 413 || result.error !== undefined).toBe(true);
    if (result.status !== undefined) {
      expect(JSON.parse(result.body ?? '')).toMatchObject({
        error: 'payload_too_large',
        message: /1048576 bytes/,
      });
    }
    expect(server.api.faults.pending).toBe(0);
  });

  it('answers 413 before reading when Content-Length says more than 1 MiB, and closes the connection', async () => {
    const server = await start();
    type Answer = { status?: number; connection?: string; body: string; headers: IncomingHttpHeaders };
    const answer = await new Promise<Answer>((resolve, reject) => {
      const req = request(controlUrl(server, 'faults'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(2 * MiB) },
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (part: string) => {
          body += part;
        });
        const { statusCode: status, headers } = res;
        res.on('end', () => resolve({ status, connection: headers.connection, body, headers }));
      });
      req.on('error', reject);
      // Only the head is sent: the answer must not wait for a body that is never coming.
      req.flushHeaders();
    });
    expect(answer.status).toBe(413);
    expect(answer.connection).toBe('close');
    // Made by the server before the core sees the request, it carries what every answer does.
    expect(answer.headers['x-request-id']).toMatch(/^req_\d{6,}$/);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
  });

  it('takes a body of exactly 1 MiB, and refuses one byte more', async () => {
    const server = await start();
    const fault = JSON.stringify({ status: 503 });
    const exact = fault.padEnd(MiB, ' ');
    const post = (body: string) =>
      fetch(controlUrl(server, 'faults'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    expect((await post(exact)).status).toBe(202);
    expect(server.api.faults.pending).toBe(1);
    const over = await post(`${exact} `);
    expect(over.status).toBe(413);
    expect(server.api.faults.pending).toBe(1);
  });

  it('caps the API paths too (a POST there is a 405 when small)', async () => {
    const server = await start();
    const chunk = new Uint8Array(64 * 1024);
    const authorization = `Bearer ${MOCK_API_KEY}`;
    const result = await postChunked(`${server.url}/journals`, chunk, (256 * MiB) / chunk.byteLength, {
      authorization,
    });
    expect(result.written).toBeLessThan(64 * MiB);
    expect(result.status === 413 || result.error !== undefined).toBe(true);
    const small = await fetch(`${server.url}/journals`, {
      method: 'POST',
      body: '{}',
      headers: { authorization },
    });
    expect(small.status).toBe(405);
  });
});

// Redirects to another origin or in a loop, server text that would act on a terminal, credentials in baseUrl.
import { describe, expect, it } from 'vitest';
import { APIError, ConnectionError, MetricClient, MetricError } from '../../src/index.js';
import { failure, thrown } from '../helpers/calls.js';
import { useRealServer } from '../helpers/real-server.js';
import { OTHER_TEST_KEY, TEST_KEY } from '../support.js';
import { subjects } from './fault-server.js';

const server = useRealServer();
const other = useRealServer();

describe('redirects', () => {
  const hooks = {
    beforeRequest: [({ request }: { request: Request }) => request.headers.set('x-api-key', OTHER_TEST_KEY)],
  };

  for (const status of [301, 302, 303, 307, 308]) {
    it(`${status} to another origin, with a hook's x-api-key: refused with a MetricError, nothing sent there`, async () => {
      other.serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(subjects));
      });
      server.serve((_req, res) => {
        res.writeHead(status, { location: `${other.base}/subjects` }).end();
      });
      const error = await failure(() => server.client({ hooks, maxRetries: 2 }).subjects.list());
      expect(error).toBeInstanceOf(MetricError);
      expect(error).not.toBeInstanceOf(ConnectionError);
      const from = new URL(server.base).origin;
      const to = new URL(other.base).origin;
      expect(error.message).toContain(`from ${from} to another origin, ${to}`);
      expect(error.message).not.toContain('sk_');
      expect(server.hits).toBe(1);
      expect(other.hits).toBe(0);
    });

    it(`${status} within the origin: followed, with every header`, async () => {
      const seen: Array<{ url: string | undefined; key: unknown; authorization: unknown }> = [];
      server.serve((req, res) => {
        seen.push({ url: req.url, key: req.headers['x-api-key'], authorization: req.headers.authorization });
        if (req.url === '/api/v1/subjects') res.writeHead(status, { location: '/api/v1/moved' }).end();
        else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(subjects));
        }
      });
      await expect(server.client({ hooks }).subjects.list()).resolves.toEqual(subjects);
      expect(seen).toEqual([
        { url: '/api/v1/subjects', key: OTHER_TEST_KEY, authorization: `Bearer ${TEST_KEY}` },
        { url: '/api/v1/moved', key: OTHER_TEST_KEY, authorization: `Bearer ${TEST_KEY}` },
      ]);
    });
  }

  it('a redirect loop within the origin ends with a MetricError after 20 redirects', async () => {
    server.serve((_req, res) => {
      res.writeHead(302, { location: '/api/v1/subjects' }).end();
    });
    const error = await failure(() => server.client({ maxRetries: 2 }).subjects.list());
    expect(error).toBeInstanceOf(MetricError);
    expect(error.message).toMatch(/after 20 redirects/);
    expect(server.hits).toBe(21);
  });

  it('a 3xx without Location is an answer: APIError with its status', async () => {
    server.serve((_req, res) => {
      res.writeHead(302).end();
    });
    const error = await failure(() => server.client().subjects.list());
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(302);
  });
});

describe('server text in messages', () => {
  it('ANSI escapes, controls and bidirectional overrides are escaped, the rest kept', async () => {
    server.serve((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ message: 'bad \u001b[31mred\u001b[0m \u202egnp.exe \u2066x\u2069 \u0007 done' }),
      );
    });
    const error = await failure(() => server.client().subjects.list());
    expect(error.message).toBe(
      '400 Bad Request: bad \\u001b[31mred\\u001b[0m \\u202egnp.exe \\u2066x\\u2069 \\u0007 done',
    );
    for (const raw of ['\u001b', '\u0007', '\u202e', '\u2066', '\u2069'])
      expect(error.message).not.toContain(raw);
  });
});

describe('credentials in baseUrl', () => {
  it('are refused at construction, and never echoed', () => {
    for (const base of [
      'http://user:hunter2pass@127.0.0.1/api/v1',
      'https://hunter2only@example.test/api/v1',
    ]) {
      const refusal = thrown(() => new MetricClient({ apiKey: TEST_KEY, baseUrl: base }), MetricError);
      expect((refusal as Error).message).toMatch(/must not carry credentials/);
      expect((refusal as Error).message).not.toContain('hunter2');
    }
  });
});

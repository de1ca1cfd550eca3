// Since 0.2, in Chromium: response metadata read across origins, and a client's own limits, kept
// without a chunk of their own.
import { NotFoundError } from 'scholarly-metrics';
import { expect, test } from 'vitest';
import { client } from './helpers.js';

test('withResponse gives the request id, read through CORS, and asResponse an unread body', async () => {
  const { data, response, requestId } = await client().subjects.list().withResponse();
  expect(data.length).toBeGreaterThan(0);
  expect(response.status).toBe(200);
  expect(requestId).toMatch(/^req_\d+$/);
  const raw = await client().journals.list().asResponse();
  expect(raw.bodyUsed).toBe(false);
  expect(Array.isArray(await raw.json())).toBe(true);
  const error = await client()
    .journals.get(999_999_999)
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(NotFoundError);
  expect((error as NotFoundError).requestId).toMatch(/^req_\d+$/);
});

test('a client with limits keeps them without loading a chunk, and every call still completes', async () => {
  const chunks = () =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((url) => /\/dist\//.test(url));
  const before = chunks();
  let inFlight = 0;
  let most = 0;
  const limited = client({
    maxConcurrency: 1,
    maxRequestsPerMinute: 100,
    fetch: async (input, init) => {
      most = Math.max(most, ++inFlight);
      try {
        return await globalThis.fetch(input, init);
      } finally {
        inFlight--;
      }
    },
  });
  const results = await Promise.all([
    limited.subjects.list(),
    limited.countries.list(),
    limited.journals.list(),
  ]);
  expect(results.every((list) => list.length > 0)).toBe(true);
  expect(most).toBe(1);
  expect(chunks()).toEqual(before);
});

test("no User-Agent is set by the SDK in a browser: the request goes out with the browser's own", async () => {
  let sent: Headers | undefined;
  const c = client({
    fetch: (input, init) => {
      sent = new Request(input, init).headers;
      return globalThis.fetch(input, init);
    },
  });
  await c.subjects.list();
  expect(sent?.get('user-agent') ?? '').not.toContain('scholarly-metrics');
});

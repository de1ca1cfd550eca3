import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/index.js';
import { startMockServer } from '../../src/testing/index.js';
import { rejection } from '../helpers/calls.js';
import { testClient, useMockServer } from '../support.js';

const sizes = { journals: 30, papers: 300, authors: 50, subjects: 8, countries: 20 };
const mock = useMockServer({ sizes });

describe('request ids over real sockets', () => {
  it('withResponse().requestId is the id the mock recorded for that answer', async () => {
    const client = mock.client();
    const journal = await client.journals.get(1).withResponse();
    expect(journal.requestId).toMatch(/^req_\d{6,}$/);
    expect(journal.requestId).toBe(mock.api.requests.at(-1)?.requestId);
    const page = await client.papers.search({ q: 'a' }).withResponse();
    expect(page.requestId).toBe(mock.api.requests.at(-1)?.requestId);
    expect(page.requestId).not.toBe(journal.requestId);
  });

  it("an APIError's requestId is the id of the answer that failed", async () => {
    const error = await rejection(mock.client().journals.get(999_999));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).requestId).toBe(mock.api.requests.at(-1)?.requestId);
  });
});

describe('a short rate-limit window, met by one client', () => {
  it('six calls one at a time all succeed, and the pause after the 429 spares the rest a 429', async () => {
    // Three requests per 1.5 s, the window opening at the first one. Calls 1–3 fit; call 4 draws a
    // 429 with Retry-After ≥ what is left of the window. Without the pause, calls 5 and 6 would be
    // sent next, into the same full window, and draw a 429 each: three in all. With it, they wait
    // out the Retry-After with call 4's retry, and meet a fresh window: one 429 in all.
    const server = await startMockServer({ sizes, limits: { perWindow: { requests: 3, windowMs: 1_500 } } });
    try {
      const client = testClient({ maxConcurrency: 1 }, server);
      const results = await Promise.all(Array.from({ length: 6 }, () => client.subjects.list()));
      expect(results).toHaveLength(6);
      for (const subjects of results) expect(subjects).toHaveLength(sizes.subjects);
      const statuses = server.api.requests.map((request) => request.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(6);
      expect(statuses.filter((status) => status === 429).length).toBeLessThanOrEqual(1);
    } finally {
      await server.close();
    }
  });

  it('six parallel calls with no limit set: the three refused are retried once each, all succeed', async () => {
    // All six are sent before any answer: three draw the 429 whatever the client does. Their retries
    // wait at least the Retry-After, by which time the window has ended: no 429 is drawn twice.
    const server = await startMockServer({ sizes, limits: { perWindow: { requests: 3, windowMs: 1_500 } } });
    try {
      const client = testClient({}, server);
      const results = await Promise.all(Array.from({ length: 6 }, () => client.subjects.list()));
      expect(results).toHaveLength(6);
      const statuses = server.api.requests.map((request) => request.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(6);
      expect(statuses.filter((status) => status === 429)).toHaveLength(3);
    } finally {
      await server.close();
    }
  });
});

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScoreUpdatedEvent } from '../../src/index.js';
import { startMockServer } from '../../src/testing/index.js';
import {
  createNodeWebhookHandler,
  createWebhookHandler,
  parseWebhookEvent,
} from '../../src/webhooks/index.js';
import { testClient, useMockServer } from '../support.js';

const mock = useMockServer({ sizes: { journals: 20, papers: 500, authors: 60, subjects: 5, countries: 8 } });

// A receiver like a user's: Node http and the SDK's own Node handler.
const received: ScoreUpdatedEvent[] = [];
const receiver = createServer(
  createNodeWebhookHandler((event) => {
    received.push(event);
  }),
);
let hookUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('score_updated, end to end', () => {
  it('is POSTed by the mock, parsed by the receiver, and the API shows the new score', async () => {
    received.length = 0;
    mock.api.webhooks.subscribe(hookUrl);
    const before = await mock.client().journals.score(9);
    const { event, deliveries } = await mock.api.updateScore(9, before.current + 5);
    expect(deliveries).toEqual([{ url: hookUrl, ok: true, status: 200 }]);
    expect(received).toEqual([event]);
    expect(received[0]).toMatchObject({ event: 'score_updated', journal_id: 9, old_score: before.current });
    const after = await mock.client().journals.score(9);
    expect(after.current).toBe(before.current + 5);
    expect(after.history[0]!.score).toBe(before.current + 5);
  });

  it('parses with parseWebhookEvent, whatever form the body arrives in', async () => {
    const { event } = await mock.api.updateScore(2, mock.api.dataset.journal(2)!.metric_score + 1);
    const text = JSON.stringify(event);
    expect(parseWebhookEvent(text)).toEqual(event);
    expect(parseWebhookEvent(new TextEncoder().encode(text))).toEqual(event);
    expect(parseWebhookEvent(JSON.parse(text))).toEqual(event);
  });

  it('reaches a Fetch-style receiver in-process, with no socket at all', async () => {
    const events: ScoreUpdatedEvent[] = [];
    const handle = createWebhookHandler((event) => {
      events.push(event);
    });
    const server = await startMockServer({
      sizes: { journals: 5, papers: 20, authors: 5, subjects: 2, countries: 2 },
      webhooks: {
        urls: ['https://my-app.test/hooks'],
        fetch: (input, init) => handle(new Request(input, init)),
      },
    });
    try {
      const { deliveries } = await server.api.updateScore(1, server.api.dataset.journal(1)!.metric_score + 1);
      expect(deliveries[0]).toMatchObject({ ok: true, status: 200 });
      expect(events).toHaveLength(1);
      const client = testClient({}, server);
      expect((await client.journals.get(1)).metric_score).toBe(events[0]!.new_score);
    } finally {
      await server.close();
    }
  });
});

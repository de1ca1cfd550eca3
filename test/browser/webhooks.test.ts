// The built webhook entry (dist/webhooks.js) in Chromium: a real event made by the mock, parsed from
// every body form a page or a service worker can hold, and the Fetch-style receiver.
import {
  createWebhookHandler,
  parseWebhookEvent,
  type ScoreUpdatedEvent,
  WebhookPayloadError,
} from 'scholarly-metrics/webhooks';
import { describe, expect, test } from 'vitest';
import { control } from './helpers.js';

let score = 60;

/** Has the mock change journal 1's score and returns the `score_updated` event it made. */
async function realEvent(): Promise<Record<string, unknown>> {
  const { event } = (await control('score', { journal_id: 1, new_score: ++score })) as {
    event: Record<string, unknown>;
  };
  return event;
}

describe('parseWebhookEvent', () => {
  test('a score_updated event from the mock, as a string, bytes, an ArrayBuffer and an object', async () => {
    const sent = await realEvent();
    const text = JSON.stringify(sent);
    const bytes = new TextEncoder().encode(text);
    for (const body of [text, bytes, bytes.buffer, sent]) {
      const event: ScoreUpdatedEvent = parseWebhookEvent(body);
      expect(event).toMatchObject({ event: 'score_updated', journal_id: 1, new_score: score });
      expect(event.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    }
  });

  test('anything else is a WebhookPayloadError that says why', async () => {
    const sent = await realEvent();
    const bad = [
      '',
      '{"event":',
      JSON.stringify({ ...sent, event: 'journal_deleted' }),
      JSON.stringify({ ...sent, new_score: String(sent.new_score) }),
      JSON.stringify({ ...sent, timestamp: '2024-01-01' }),
      new Uint8Array([0xff, 0xfe, 0x00]),
      null,
      [],
    ];
    for (const body of bad) {
      const error = (() => {
        try {
          parseWebhookEvent(body as string);
        } catch (e) {
          return e;
        }
      })();
      expect(error, JSON.stringify(body)).toBeInstanceOf(WebhookPayloadError);
      expect((error as Error).message.length).toBeGreaterThan(0);
    }
  });
});

describe('createWebhookHandler (Request → Response)', () => {
  test('answers 2xx after the callback has the typed event, 400 with a reason otherwise', async () => {
    const seen: ScoreUpdatedEvent[] = [];
    const handle = createWebhookHandler((event) => {
      seen.push(event);
    });
    const sent = await realEvent();
    const ok = await handle(
      new Request('https://hooks.example/metric', { method: 'POST', body: JSON.stringify(sent) }),
    );
    expect(ok.status).toBeGreaterThanOrEqual(200);
    expect(ok.status).toBeLessThan(300);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.journal_id).toBe(1);

    const refused = await handle(
      new Request('https://hooks.example/metric', { method: 'POST', body: '{"event":"score_updated"}' }),
    );
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/journal_id|invalid/);
    expect(seen).toHaveLength(1);
  });
});

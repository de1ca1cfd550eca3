// A runtime without WebCrypto (a browser page served over plain http has no `crypto.subtle`): the
// cache stays off (docs/cache.md), so every call goes to the API, and an event has nothing to drop:
// applying one resolves, and a receiver that rejects on a cache failure still answers 200.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWebhookHandler } from '../../src/webhooks/index.js';
import { recordingLogger } from '../support.js';
import { validEvent, validJson } from '../webhooks/fixtures.js';
import { cachedClient } from './helpers.js';

describe('the cache where WebCrypto is missing', () => {
  beforeEach(() => {
    vi.stubGlobal('crypto', { getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto) });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends every call to the API, and says so once', async () => {
    const { lines, logger } = recordingLogger();
    const { client, sent } = cachedClient({ logger, logLevel: 'warn' });
    const answers = [
      await client.journals.get(7).withResponse(),
      await client.journals.get(7).withResponse(),
    ];
    expect(answers.map((answer) => [answer.cacheStatus, answer.data.id])).toEqual([
      ['off', 7],
      ['off', 7],
    ]);
    expect(sent()).toBe(2);
    expect(lines.map(({ level, message }) => `${level}: ${message}`)).toEqual([
      'warn: [scholarly-metrics] the cache is off: this runtime has no WebCrypto (crypto.subtle) to make its keys',
    ]);
  });

  it('applies an event and clears without an error: nothing is kept', async () => {
    const { client } = cachedClient();
    await client.journals.get(validEvent.journal_id);
    await expect(client.cache!.apply(validEvent)).resolves.toBeUndefined();
    await expect(client.cache!.clear()).resolves.toBeUndefined();
  });

  it("lets a receiver with cacheFailure: 'reject' accept the event", async () => {
    const { client } = cachedClient();
    const onError = vi.fn();
    const onEvent = vi.fn();
    const handle = createWebhookHandler(onEvent, { cache: client.cache, cacheFailure: 'reject', onError });
    const response = await handle(new Request('http://127.0.0.1/hook', { method: 'POST', body: validJson }));
    expect(response.status).toBe(200);
    expect(onEvent).toHaveBeenCalledTimes(1);
    expect(onError).not.toHaveBeenCalled();
  });
});

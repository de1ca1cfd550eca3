// The cache as a user writes it: the option in both forms, Keyv stores of keyv 5 and keyv 6 (the
// store is taken by shape), per-call control, the cache status and keeping scores fresh.
import KeyvRedis from '@keyv/redis';
import { Keyv } from 'keyv';
import { Keyv as Keyv6 } from 'keyv6';
import {
  type CacheMethod,
  type CacheOptions,
  type CacheStatus,
  type CacheStore,
  type MetricCache,
  MetricClient,
  type ScoreUpdatedEvent,
} from 'scholarly-metrics';
import type { MockApi } from 'scholarly-metrics/testing';
import { createWebhookHandler, parseWebhookEvent, type WebhookEvent } from 'scholarly-metrics/webhooks';

const apiKey = 'k';
const baseUrl = 'https://x.example/api/v1';
declare const staleIfError: number | undefined;

export function options(): MetricClient[] {
  const inMemory = new MetricClient({ apiKey, baseUrl, cache: true });
  const keyv5 = new MetricClient({
    apiKey,
    baseUrl,
    cache: {
      store: new Keyv({ namespace: 'scholarly-metrics' }),
      ttl: { 'journals.get': 3_600_000, 'papers.get': 86_400_000, 'papers.search': 0 },
      staleIfError,
    },
  });
  const keyv6: CacheOptions = { store: new Keyv6({ namespace: 'scholarly-metrics' }), ttl: undefined };
  const overRedis: CacheStore = new Keyv(new KeyvRedis(process.env.REDIS_URL));
  const longLived: CacheMethod[] = ['subjects.list', 'countries.list'];
  const ttl: CacheOptions['ttl'] = Object.fromEntries(longLived.map((name) => [name, 604_800_000]));
  const off = new MetricClient({ apiKey, baseUrl, cache: false });
  // A lifetime that may be undefined (read from configuration) keeps that method's default.
  const fromConfig: CacheOptions = { ttl: { 'journals.get': staleIfError, 'papers.search': undefined } };
  return [
    inMemory,
    keyv5,
    new MetricClient({ apiKey, baseUrl, cache: keyv6 }),
    new MetricClient({ apiKey, baseUrl, cache: { store: overRedis, ttl } }),
    off,
    new MetricClient({ apiKey, baseUrl, cache: fromConfig }),
  ];
}

export async function perCall(client: MetricClient): Promise<CacheStatus> {
  await client.journals.get(42, { cache: 'refresh' });
  await client.papers.search({ q: 'graphene' }, { cache: false });
  const { data, cacheStatus } = await client.journals.get(42).withResponse();
  // The literal union: a switch over it is exhaustive.
  switch (cacheStatus) {
    case 'hit':
    case 'stale':
      return cacheStatus;
    case 'miss':
    case 'off':
      console.log(data.name);
      return cacheStatus;
    default: {
      const never: never = cacheStatus;
      return never;
    }
  }
}

export async function fresh(client: MetricClient, api: MockApi, body: string): Promise<void> {
  const cache: MetricCache | undefined = client.cache;
  await cache?.apply(parseWebhookEvent(body));
  const { event } = await api.updateScore(7, 81);
  await client.cache?.apply(event);
  await client.cache?.clear();
  const onEvent = (received: WebhookEvent) => console.log(received.journal_id);
  createWebhookHandler(onEvent, { cache: client.cache });
}

/** A client made with a cache has one, by its type: the contract's `client.cache.apply(event)` compiles as written. */
export async function typedByTheOption(event: ScoreUpdatedEvent, enabled: boolean): Promise<void> {
  const client = new MetricClient({ apiKey, baseUrl, cache: true });
  await client.cache.apply(event);
  await client.cache.clear();
  const keyed = new MetricClient({ apiKey, baseUrl, cache: { staleIfError: 60_000 } });
  createWebhookHandler(() => {}, { cache: keyed.cache });
  const off: undefined = new MetricClient({ apiKey, baseUrl, cache: false }).cache;
  const maybe = new MetricClient({ apiKey, baseUrl, cache: enabled });
  // @ts-expect-error: a cache option that may be false may leave the client without one
  await maybe.cache.clear();
  // Any of them is a MetricClient where one is taken.
  const clients: MetricClient[] = [client, keyed, maybe];
  // @ts-expect-error: a misspelt option is still refused
  new MetricClient({ apiKey, baseUrl, cache: true, maxRetry: 3 });
  // @ts-expect-error: and so is a misspelt option of the cache
  new MetricClient({ apiKey, baseUrl, cache: { ttl: {}, tll: 5 } });
  // A child keeps its parent's cache, and its type; a cache option given as undefined is none given.
  await client.withOptions({ timeout: 5_000 }).cache.apply(event);
  await client.withOptions({ cache: undefined }).cache.clear();
  const childOff: undefined = client.withOptions({ cache: false }).cache;
  console.log(off, childOff, clients.length);
}

export function wrong(client: MetricClient, status: CacheStatus): unknown[] {
  // @ts-expect-error: 'journals.gett' is no method name
  const typo: CacheOptions = { ttl: { 'journals.gett': 1_000 } };
  // @ts-expect-error: 'fresh' is no cache status, so the comparison is always false
  const isFresh = status === 'fresh';
  return [
    typo,
    isFresh,
    // @ts-expect-error: the option is a boolean or an object
    new MetricClient({ apiKey, baseUrl, cache: 'yes' }),
    // @ts-expect-error: per call, only 'refresh' or false
    client.journals.get(42, { cache: true }),
    // @ts-expect-error: a store has get, set, delete and clear
    new MetricClient({ apiKey, baseUrl, cache: { store: new Map<string, string>().keys() } }),
    // @ts-expect-error: apply takes a score_updated event
    client.cache?.apply({ event: 'paper_added', journal_id: 7 }),
  ];
}

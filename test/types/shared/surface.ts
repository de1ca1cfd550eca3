// The public names: one for the score_updated event wherever it appears, the mock's constants under
// MOCK_ names (the old ones still compile, as deprecated aliases), and the SDK's own structural
// helpers kept out of the exports, except the provider and Redis client types a user writes.
import type {
  MeterProviderLike,
  MetricCache,
  ScoreEvent,
  ScoreUpdatedEvent,
  TelemetryOptions,
  TracerProviderLike,
} from 'scholarly-metrics';
import type { RedisClientLike } from 'scholarly-metrics/redis';
import {
  AUTHOR_SORTS,
  createMockApi,
  DEFAULT_PER_PAGE,
  MOCK_AUTHOR_SORTS,
  MOCK_DEFAULT_PER_PAGE,
  MOCK_MAX_PER_PAGE,
  MOCK_PAPER_SORTS,
  MOCK_SHOW_VALUES,
  type MockScoreUpdatedEvent,
} from 'scholarly-metrics/testing';
import { parseWebhookEvent, type ScoreUpdatedEvent as WebhookScoreEvent } from 'scholarly-metrics/webhooks';

export async function oneEventType(cache: MetricCache, body: string): Promise<ScoreUpdatedEvent[]> {
  const parsed: WebhookScoreEvent = parseWebhookEvent(body);
  const { event: sent } = await createMockApi().updateScore(7, 81);
  const fromMock: ScoreUpdatedEvent = sent;
  await cache.apply(parsed);
  await cache.apply(sent);
  // The mock's deprecated name is the same type, both ways; ScoreEvent keeps its 0.4 meaning, what
  // `apply` reads: any event is one, and so is as little as its kind and journal.
  const oldMock: MockScoreUpdatedEvent = fromMock;
  const event: ScoreUpdatedEvent = oldMock;
  const old: ScoreEvent = event;
  const least: ScoreEvent = { event: 'score_updated', journal_id: 7 };
  await cache.apply(old);
  await cache.apply(least);
  await cache.apply({ event: 'score_updated', journal_id: 7, new_score: 81 });
  return [parsed, oldMock];
}

export function constants(): number[] {
  const perPage: 20 = MOCK_DEFAULT_PER_PAGE;
  const same: typeof MOCK_DEFAULT_PER_PAGE = DEFAULT_PER_PAGE;
  const sorts: readonly string[] = [...MOCK_PAPER_SORTS, ...MOCK_AUTHOR_SORTS, ...MOCK_SHOW_VALUES];
  const oldSorts: typeof MOCK_AUTHOR_SORTS = AUTHOR_SORTS;
  return [perPage, same, MOCK_MAX_PER_PAGE, sorts.length, oldSorts.length];
}

export function providers(
  tracerProvider: TracerProviderLike,
  meterProvider: MeterProviderLike,
  redis: RedisClientLike,
): [TelemetryOptions, RedisClientLike] {
  return [{ tracerProvider, meterProvider }, redis];
}

// Not exported: the SDK's own structural types, which users never write.
// @ts-expect-error: the span's structural type is the SDK's own
export type Span = import('scholarly-metrics').SpanLike;
// Every option with its documentation, beside ClientOptions (which adds the quota's alternatives).
export type OptionsBase = import('scholarly-metrics').ClientOptionsBase;
// @ts-expect-error: RedisClientLike is the Redis client's public name
export type NodeRedis = import('scholarly-metrics/redis').NodeRedisLike;

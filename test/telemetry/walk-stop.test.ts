// A walk stopped by its consumer (a `break`) aborts the pages it requested ahead: their spans and the
// duration metric say they were stopped, never that they failed. A walk its caller aborts records
// each page once. With the real OpenTelemetry SDK,
// against the mock served on 127.0.0.1 slowly enough that the pages ahead are still in flight.
import { SpanStatusCode } from '@opentelemetry/api';
import { expect, it } from 'vitest';
import { RequestAbortedError } from '../../src/index.js';
import { useMockServer } from '../support.js';
import { useTelemetry as telemetryHarness } from './harness.js';

const otel = telemetryHarness({ undici: false });
const mock = useMockServer({ faults: { latencyMs: 200 } });

it('the pages ahead of a stopped walk are not errors, in spans or in the duration metric', async () => {
  const client = mock.client({ telemetry: otel.telemetry });
  for await (const page of client.papers.search({ per_page: 5 }, { prefetch: 3 }).pages()) {
    expect(page.page).toBe(1);
    break;
  }
  // The aborted requests end once their abort has gone through the transport.
  await expect.poll(() => otel.named('papers.search').length, { timeout: 10_000 }).toBe(4);
  const spans = otel.named('papers.search');
  expect(spans.filter((span) => span.status.code === SpanStatusCode.ERROR)).toEqual([]);
  const stopped = spans.filter((span) => span.attributes['scholarly_metrics.walk.stopped'] === true);
  expect(stopped).toHaveLength(3);
  for (const span of stopped) expect(span.attributes['error.type']).toBeUndefined();
  const points = await otel.points('scholarly_metrics.client.duration');
  expect(points.filter((point) => point.attributes['error.type'] !== undefined)).toEqual([]);
  expect(points.some((point) => point.attributes['scholarly_metrics.walk.stopped'] === true)).toBe(true);
});

it('a walk aborted by its signal while pages ahead are in flight records each page once', async () => {
  otel.reset();
  const client = mock.client({ telemetry: otel.telemetry });
  const caller = new AbortController();
  const walk = client.papers.search({ per_page: 5 }, { prefetch: 2, signal: caller.signal }).pages();
  const error = await (async () => {
    for await (const page of walk) {
      expect(page.page).toBe(1);
      caller.abort(new Error('enough'));
    }
  })().catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(RequestAbortedError);
  await expect.poll(() => otel.named('papers.search').length, { timeout: 10_000 }).toBe(3);
  // Let any second request of a page ahead settle too, had one been made.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const pages = otel.named('papers.search').map((span) => span.attributes['scholarly_metrics.page']);
  expect([...pages].sort()).toEqual([1, 2, 3]);
});

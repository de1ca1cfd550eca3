// The client's metrics after a known sequence of calls, read from the real OpenTelemetry SDK: names,
// units, descriptions, attributes (few, and none a caller's value) and values.
import { readFileSync } from 'node:fs';
import type { DataPoint, Histogram } from '@opentelemetry/sdk-metrics';
import { describe, expect, it, vi } from 'vitest';
import type { MeterLike } from '../../src/core/telemetry-types.js';
import { VERSION } from '../../src/core/user-agent.js';
import { NotFoundError, RequestAbortedError } from '../../src/index.js';
import { clientInstruments } from '../../src/telemetry/instruments.js';
import { createMockApi } from '../../src/testing/index.js';
import { gatedFetch } from '../cache/helpers.js';
import { testClient, useMockServer } from '../support.js';
import { useTelemetry } from './harness.js';

const otel = useTelemetry({ undici: false });
const mock = useMockServer();

/** Each point's attributes and value; every point must name the API host, left out here. */
const count = (points: DataPoint<unknown>[]) =>
  points.map(({ attributes, value }) => {
    const { 'server.address': address, 'server.port': port, ...rest } = attributes;
    expect([address, port]).toEqual(['127.0.0.1', Number(new URL(mock.server.url).port)]);
    return { ...rest, value: typeof value === 'number' ? value : (value as Histogram).count };
  });

describe('metrics', () => {
  it('after a known sequence of calls', async () => {
    const client = testClient(
      { cache: { ttl: { 'journals.list': 0 } }, telemetry: { meterProvider: otel.telemetry.meterProvider } },
      mock.server,
    );
    await client.journals.get(1); // miss
    await client.journals.get(1); // hit
    mock.api.faults.next({ status: 503 });
    await client.journals.list(); // not kept: no lookup; one retry
    await expect(client.authors.get(999_999)).rejects.toBeInstanceOf(NotFoundError); // miss, failed

    expect(count(await otel.points('scholarly_metrics.client.duration'))).toEqual([
      { 'scholarly_metrics.method': 'journals.get', 'scholarly_metrics.cache.status': 'miss', value: 1 },
      { 'scholarly_metrics.method': 'journals.get', 'scholarly_metrics.cache.status': 'hit', value: 1 },
      { 'scholarly_metrics.method': 'journals.list', value: 1 },
      { 'scholarly_metrics.method': 'authors.get', 'error.type': 'NotFoundError', value: 1 },
    ]);
    expect(count(await otel.points('scholarly_metrics.client.retries'))).toEqual([
      { 'scholarly_metrics.method': 'journals.list', 'scholarly_metrics.retry.reason': '503', value: 1 },
    ]);
    expect(count(await otel.points('scholarly_metrics.cache.lookups'))).toEqual([
      { 'scholarly_metrics.method': 'journals.get', 'scholarly_metrics.cache.status': 'miss', value: 1 },
      { 'scholarly_metrics.method': 'journals.get', 'scholarly_metrics.cache.status': 'hit', value: 1 },
    ]);
    // One wait per attempt sent: journals.get once, journals.list twice, authors.get once.
    expect(count(await otel.points('scholarly_metrics.quota.wait'))).toEqual([
      { 'scholarly_metrics.quota.source': 'local', value: 4 },
    ]);

    const metrics = (await otel.collect()).scopeMetrics;
    expect(metrics.map((scope) => scope.scope)).toEqual([
      { name: 'scholarly-metrics', version: VERSION, schemaUrl: undefined },
    ]);
    const descriptors = Object.fromEntries(
      metrics[0]!.metrics.map(({ descriptor }) => [
        descriptor.name,
        [descriptor.unit, descriptor.description.length > 10],
      ]),
    );
    expect(descriptors).toEqual({
      'scholarly_metrics.client.duration': ['s', true],
      'scholarly_metrics.client.retries': ['{retry}', true],
      'scholarly_metrics.quota.wait': ['s', true],
      'scholarly_metrics.cache.lookups': ['{lookup}', true],
      'scholarly_metrics.quota.waiting': ['{request}', true],
      'scholarly_metrics.quota.in_flight': ['{request}', true],
    });
    // Gauges of this process's calls: each back to 0 once the calls are done.
    expect(count(await otel.points('scholarly_metrics.quota.waiting'))).toEqual([
      { 'scholarly_metrics.quota.source': 'local', value: 0 },
    ]);
    expect(count(await otel.points('scholarly_metrics.quota.in_flight'))).toEqual([
      { 'scholarly_metrics.quota.source': 'local', value: 0 },
    ]);
  });

  it('the gauges return to 0 when a call leaves a shared request whose attempt still waits for the quota', async () => {
    const api = createMockApi();
    const gated = gatedFetch(api);
    const { meterProvider } = otel.telemetry;
    const client = testClient(
      { cache: true, maxConcurrency: 1, fetch: gated.fetch, telemetry: { meterProvider } },
      api,
    );
    const gauge = async (name: string) => (await otel.points(name)).map((point) => point.value);
    const waiting = async () => (await gauge('scholarly_metrics.quota.waiting'))[0];
    const busy = client.subjects.list({ cache: false }).then((subjects) => subjects.length);
    await vi.waitFor(() => expect(gated.started()).toBe(1));
    // Two callers share one request, whose attempt waits for the one place; the first caller
    // leaves. The attempt goes on for the second, and is let through once the place is free.
    const leaving = new AbortController();
    const first = client.journals.get(7, { signal: leaving.signal });
    const second = client.journals.get(7);
    await vi.waitFor(async () => expect(await waiting()).toBe(1));
    leaving.abort();
    await expect(first).rejects.toBeInstanceOf(RequestAbortedError);
    gated.release();
    expect((await second).id).toBe(7);
    await busy;
    expect(gated.started()).toBe(2);
    expect(await gauge('scholarly_metrics.quota.waiting')).toEqual([0]);
    expect(await gauge('scholarly_metrics.quota.in_flight')).toEqual([0]);
  });

  it('docs/observability.md lists every metric the client records', () => {
    const names: string[] = [];
    const instrument = (name: string) => {
      names.push(name);
      return { add() {}, record() {} };
    };
    const meter = { createHistogram: instrument, createCounter: instrument, createUpDownCounter: instrument };
    clientInstruments(meter as unknown as MeterLike);
    const docs = readFileSync(new URL('../../docs/observability.md', import.meta.url), 'utf8');
    expect(names).toHaveLength(7);
    for (const name of names) expect(docs).toContain(`| \`${name}\` |`);
  });

  it('durations are in seconds', async () => {
    const client = testClient({ telemetry: { meterProvider: otel.telemetry.meterProvider } }, mock.server);
    mock.api.faults.next({ delayMs: 300 });
    const started = performance.now();
    await client.subjects.list();
    const elapsed = (performance.now() - started) / 1000;
    const [point] = await otel.points('scholarly_metrics.client.duration');
    const { sum } = point!.value as Histogram;
    // Within the call's own measured time, and at least the server's delay: seconds, not ms.
    expect(sum).toBeGreaterThanOrEqual(0.3);
    expect(sum).toBeLessThanOrEqual(elapsed);
  });
});

// A span per call with the real OpenTelemetry SDK, against the mock served on 127.0.0.1: names,
// kinds, parents, attributes and events, and the undici instrumentation's HTTP spans below them.
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/core/user-agent.js';
import { NotFoundError, RequestAbortedError, TimeoutError } from '../../src/index.js';
import { testClient, useMockServer, useRealServer } from '../support.js';
import { parentOf, useTelemetry } from './harness.js';

const otel = useTelemetry();
const mock = useMockServer();
const server = useRealServer();

describe('a span per call', () => {
  it('a plain call: INTERNAL, named by its method, a child of the caller span, the HTTP span its child', async () => {
    const client = testClient({ telemetry: otel.telemetry }, mock.server);
    const tracer = otel.tracer();
    await tracer.startActiveSpan('caller', async (caller) => {
      await client.journals.get(1);
      caller.end();
    });
    const [span] = otel.named('journals.get');
    const [caller] = otel.named('caller');
    expect(span!.kind).toBe(SpanKind.INTERNAL);
    expect(span!.instrumentationScope).toMatchObject({ name: 'scholarly-metrics', version: VERSION });
    expect(parentOf(span!)).toBe(caller!.spanContext().spanId);
    expect(span!.spanContext().traceId).toBe(caller!.spanContext().traceId);
    const port = Number(new URL(mock.server.url).port);
    expect(span!.attributes).toEqual({
      'http.request.method': 'GET',
      'url.template': '/journals/{id}',
      'server.address': '127.0.0.1',
      'server.port': port,
      'http.response.status_code': 200,
      'scholarly_metrics.quota.wait': expect.any(Number),
    });
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
    const http = otel.httpSpans();
    expect(http).toHaveLength(1);
    expect(http[0]!.kind).toBe(SpanKind.CLIENT);
    expect(parentOf(http[0]!)).toBe(span!.spanContext().spanId);
  });

  it("the server receives the HTTP span's traceparent, in the trace of the SDK span", async () => {
    const received: Array<string | undefined> = [];
    server.serve((req, res) => {
      received.push(req.headers.traceparent as string | undefined);
      res.writeHead(received.length === 1 ? 503 : 200, { 'content-type': 'application/json' }).end('{}');
    });
    const response = await server.client({ telemetry: otel.telemetry }).journals.get(7).asResponse();
    expect(response.status).toBe(200);
    const [span] = otel.named('journals.get');
    const http = otel.httpSpans();
    expect(http).toHaveLength(2);
    expect(received).toEqual(
      http.map((attempt) => `00-${span!.spanContext().traceId}-${attempt.spanContext().spanId}-01`),
    );
    expect(span!.attributes['http.request.resend_count']).toBe(1);
  });

  it('a retried 503: a retry event, the resend count, the final status; one HTTP span per attempt', async () => {
    const client = testClient({ telemetry: otel.telemetry }, mock.server);
    mock.api.faults.next({ status: 503 });
    await client.subjects.list();
    const [span] = otel.named('subjects.list');
    expect(span!.attributes['http.request.resend_count']).toBe(1);
    expect(span!.attributes['http.response.status_code']).toBe(200);
    expect(span!.events.map((event) => event.name)).toEqual(['retry']);
    expect(span!.events[0]!.attributes).toEqual({
      'scholarly_metrics.retry.attempt': 1,
      'scholarly_metrics.retry.delay': expect.any(Number),
      'scholarly_metrics.retry.reason': '503',
    });
    expect(span!.events[0]!.attributes!['scholarly_metrics.retry.delay']).toBeGreaterThanOrEqual(0.5);
    const http = otel.httpSpans();
    expect(http.map((s) => s.attributes['http.response.status_code'])).toEqual([503, 200]);
    for (const attempt of http) expect(parentOf(attempt)).toBe(span!.spanContext().spanId);
  });

  it('a call given up while it waits for its place: its wait is on its span and in the histogram', async () => {
    const client = testClient({ telemetry: otel.telemetry, maxRequestsPerMinute: 1 }, mock.server);
    await client.subjects.list();
    const before = await otel.points('scholarly_metrics.quota.wait');
    const caller = new AbortController();
    const held = client.subjects.list({ signal: caller.signal });
    setTimeout(() => caller.abort(new Error('enough')), 200);
    await expect(held).rejects.toBeInstanceOf(RequestAbortedError);
    const [, abandoned] = otel.named('subjects.list');
    expect(abandoned!.attributes['scholarly_metrics.quota.wait']).toBeGreaterThanOrEqual(0.15);
    const count = (points: typeof before) =>
      points.reduce((n, point) => n + (point.value as { count: number }).count, 0);
    expect(count(await otel.points('scholarly_metrics.quota.wait'))).toBe(count(before) + 1);
  });

  it("a 429 that asks for a pause: the wait shows as the retry's delay, not again as quota wait", async () => {
    const client = testClient({ telemetry: otel.telemetry }, mock.server);
    mock.api.faults.next({ status: 429, headers: { 'retry-after': '1' } });
    await client.countries.list();
    const [span] = otel.named('countries.list');
    expect(span!.events[0]!.attributes).toMatchObject({
      'scholarly_metrics.retry.reason': '429',
      'scholarly_metrics.retry.delay': 1,
    });
    expect(span!.attributes['http.request.resend_count']).toBe(1);
    expect(span!.attributes['http.response.status_code']).toBe(200);
  });

  it('a timeout: ERROR with the error class as its message', async () => {
    const client = testClient({ telemetry: otel.telemetry, timeout: 150, maxRetries: 0 }, mock.server);
    mock.api.faults.next({ delayMs: 2_000 });
    await expect(client.papers.search({ q: 'climate' })).rejects.toBeInstanceOf(TimeoutError);
    const [span] = otel.named('papers.search');
    expect(span!.attributes['error.type']).toBe('TimeoutError');
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
    expect(span!.status.message).toBe('TimeoutError');
    expect(span!.attributes['url.template']).toBe('/papers');
    expect(span!.attributes['http.response.status_code']).toBeUndefined();
  });

  it("a 503, then a retry that times out: no status, as the final attempt's had no answer", async () => {
    const client = testClient({ telemetry: otel.telemetry, timeout: 150, maxRetries: 1 }, mock.server);
    mock.api.faults.next({ status: 503 }).next({ delayMs: 2_000 });
    await expect(client.journals.get(3)).rejects.toBeInstanceOf(TimeoutError);
    const [span] = otel.named('journals.get');
    expect(span!.attributes['http.request.resend_count']).toBe(1);
    expect(span!.attributes['error.type']).toBe('TimeoutError');
    expect(span!.attributes['http.response.status_code']).toBeUndefined();
  });

  it('an abort: ERROR, RequestAbortedError', async () => {
    const client = testClient({ telemetry: otel.telemetry }, mock.server);
    mock.api.faults.next({ delayMs: 2_000 });
    const controller = new AbortController();
    const call = client.journals.get(2, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toBeInstanceOf(RequestAbortedError);
    const [span] = otel.named('journals.get');
    expect(span!.attributes['error.type']).toBe('RequestAbortedError');
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('a walk: a span per page, with its page and page size, each a child of the walking code', async () => {
    const client = testClient({ telemetry: otel.telemetry }, mock.server);
    const tracer = otel.tracer();
    const items = await tracer.startActiveSpan('walker', async (walker) => {
      const found = await client.journals
        .list()
        .then(() => client.papers.search({ q: 'climate', per_page: 5 }).toArray({ limit: 12 }));
      walker.end();
      return found;
    });
    expect(items).toHaveLength(12);
    const pages = otel.named('papers.search');
    const [walker] = otel.named('walker');
    expect(pages.map((span) => span.attributes['scholarly_metrics.page']).sort()).toEqual([1, 2, 3]);
    for (const page of pages) {
      expect(page.attributes['scholarly_metrics.per_page']).toBe(5);
      expect(parentOf(page)).toBe(walker!.spanContext().spanId);
    }
  });

  it('getMany: a span with a child per DOI; a 404 and a bad DOI do not make it ERROR', async () => {
    const client = testClient({ telemetry: otel.telemetry }, mock.server);
    const [paper] = (await client.papers.search({ q: 'climate', per_page: 1 })).data;
    const results = await client.papers.getMany([paper!.doi as string, '10.9999/no-such-paper', 'not a doi']);
    expect(results[1]!.error).toBeInstanceOf(NotFoundError);
    const [parent] = otel.named('papers.getMany');
    expect(parent!.kind).toBe(SpanKind.INTERNAL);
    expect(parent!.status.code).toBe(SpanStatusCode.UNSET);
    expect(parent!.attributes).toEqual({
      'scholarly_metrics.items': 3,
      'scholarly_metrics.items.failed': 2,
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(mock.server.url).port),
    });
    const children = otel.named('papers.get');
    expect(children).toHaveLength(3);
    for (const child of children) expect(parentOf(child)).toBe(parent!.spanContext().spanId);
    const byError = Object.fromEntries(children.map((c) => [String(c.attributes['error.type']), c]));
    expect(byError.NotFoundError!.attributes['http.response.status_code']).toBe(404);
    expect(byError.InvalidParameterError!.status.code).toBe(SpanStatusCode.ERROR);
    expect(byError.undefined!.attributes['http.response.status_code']).toBe(200);
  });

  it('the cache: hit, then stale when the API fails past the lifetime', async () => {
    const client = testClient(
      {
        telemetry: otel.telemetry,
        cache: { ttl: { 'journals.get': 1 }, staleIfError: 60_000 },
        maxRetries: 0,
      },
      mock.server,
    );
    await client.journals.get(3);
    await new Promise((resolve) => setTimeout(resolve, 5));
    mock.api.faults.next({ status: 503 });
    await client.journals.get(3);
    const client2 = testClient({ telemetry: otel.telemetry, cache: true }, mock.server);
    await client2.subjects.list();
    await client2.subjects.list();
    const statuses = otel
      .spans()
      .map((span) => [span.name, span.attributes['scholarly_metrics.cache.status']]);
    expect(statuses.filter(([name]) => name !== 'GET')).toEqual([
      ['journals.get', 'miss'],
      ['journals.get', 'stale'],
      ['subjects.list', 'miss'],
      ['subjects.list', 'hit'],
    ]);
    const [, stale] = otel.named('journals.get');
    expect(stale!.attributes['http.response.status_code']).toBe(503);
    expect(stale!.status.code).toBe(SpanStatusCode.UNSET);
    const [, hit] = otel.named('subjects.list');
    expect(hit!.attributes['http.response.status_code']).toBeUndefined();
  });

  it('withOptions children report through the same providers', async () => {
    const child = testClient({ telemetry: otel.telemetry }, mock.server).withOptions({ timeout: 5_000 });
    await child.authors.list({ q: 'Ada' });
    expect(otel.named('authors.list')).toHaveLength(1);
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});

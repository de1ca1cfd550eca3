// A SERVER span per webhook delivery and the deliveries counter, through the Fetch and the Node
// receivers, with the real OpenTelemetry SDK.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it, vi } from 'vitest';
import type { TelemetryOptions } from '../../src/core/telemetry-types.js';
import { ConfigurationError } from '../../src/index.js';
import { createNodeWebhookHandler, createWebhookHandler } from '../../src/webhooks/index.js';
import { validEvent, validJson } from '../webhooks/fixtures.js';
import { startServer } from '../webhooks/node-server.js';
import { useTelemetry } from './harness.js';

const otel = useTelemetry({ undici: false });
/** A provider of either kind whose tracer or meter cannot be had. */
const broken = {
  getTracer: () => {
    throw new Error('getTracer broke');
  },
  getMeter: () => {
    throw new Error('getMeter broke');
  },
};
const post = (body: string) => new Request('http://127.0.0.1/hook', { method: 'POST', body });

describe('webhook deliveries', () => {
  it('the Fetch handler: a SERVER span per delivery with the status answered and the journal', async () => {
    const seen: unknown[] = [];
    const handle = createWebhookHandler(
      (event) => {
        // The callback runs inside the delivery's span.
        seen.push(event.journal_id);
        otel.tracer().startSpan('callback').end();
      },
      { telemetry: otel.telemetry, onError: () => {} },
    );
    expect((await handle(post(validJson))).status).toBe(200);
    expect((await handle(post('{"event":"nope"}'))).status).toBe(400);
    const spans = otel.named('webhooks.receive');
    expect(spans.map((span) => span.kind)).toEqual([SpanKind.SERVER, SpanKind.SERVER]);
    expect(spans[0]!.attributes).toEqual({
      'http.response.status_code': 200,
      'scholarly_metrics.journal_id': validEvent.journal_id,
    });
    expect(spans[1]!.attributes).toEqual({ 'http.response.status_code': 400 });
    expect(spans[1]!.status.code).toBe(SpanStatusCode.UNSET);
    const [callback] = otel.named('callback');
    expect(callback!.parentSpanContext?.spanId).toBe(spans[0]!.spanContext().spanId);
    const points = await otel.points('scholarly_metrics.webhooks.deliveries');
    expect(points.map((p) => [p.attributes['http.response.status_code'], p.value])).toEqual([
      [200, 1],
      [400, 1],
    ]);
  });

  it('the Node handler over HTTP: a failing callback is a 500 and an ERROR span', async () => {
    const handler = createNodeWebhookHandler(
      () => {
        throw new Error('database down');
      },
      { telemetry: { tracerProvider: otel.telemetry.tracerProvider }, onError: () => {} },
    );
    const server = await startServer(handler);
    try {
      const response = await fetch(server.url, { method: 'POST', body: validJson });
      expect(response.status).toBe(500);
    } finally {
      await server.close();
    }
    const [span] = otel.named('webhooks.receive');
    expect(span!.attributes['http.response.status_code']).toBe(500);
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
    // Nothing of the callback's error on the span: the receiver's logs (onError) have it.
    expect(JSON.stringify(span!.status)).not.toContain('database');
  });

  it.each([
    [
      'meter',
      (working: TelemetryOptions) => ({ tracerProvider: working.tracerProvider, meterProvider: broken }),
    ],
    [
      'tracer',
      (working: TelemetryOptions) => ({ tracerProvider: broken, meterProvider: working.meterProvider }),
    ],
  ])(
    'a %s that throws costs the deliveries that part alone, and onError hears of each',
    async (what, telemetry) => {
      const onError = vi.fn();
      const handle = createWebhookHandler(() => {}, {
        telemetry: telemetry(otel.telemetry) as never,
        onError,
      });
      for (let delivery = 0; delivery < 2; delivery++)
        expect((await handle(post(validJson))).status).toBe(200);
      expect(onError).toHaveBeenCalledTimes(2);
      if (what === 'meter') expect(otel.named('webhooks.receive')).toHaveLength(2);
      else {
        const points = await otel.points('scholarly_metrics.webhooks.deliveries');
        expect(points.map((p) => p.value)).toEqual([2]);
      }
    },
  );

  it('a bad telemetry option is refused at creation', () => {
    expect(() => createWebhookHandler(() => {}, { telemetry: {} as never })).toThrow(ConfigurationError);
    expect(() =>
      createWebhookHandler(() => {}, { telemetry: { tracerProvider: { getTracer: 1 } } as never }),
    ).toThrow(/tracerProvider/);
  });
});

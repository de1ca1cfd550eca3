// The delivery's SERVER span continues the sender's W3C `traceparent`, through both receivers, with the
// real OpenTelemetry SDK; a malformed header is ignored (a new trace), and so is one sent twice.
import { context, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { parseTraceparent } from '../../src/telemetry/traceparent.js';
import { createNodeWebhookHandler, createWebhookHandler } from '../../src/webhooks/index.js';
import { useTelemetry as telemetryHarness } from '../telemetry/harness.js';
import { validJson } from './fixtures.js';
import { startServer } from './node-server.js';

const otel = telemetryHarness({ undici: false });
const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const parentId = '00f067aa0ba902b7';
const header = `00-${traceId}-${parentId}-01`;

type Deliver = (headers: Record<string, string>) => Promise<number>;
const receivers: Record<string, Deliver> = {
  fetch: async (headers) => {
    const handle = createWebhookHandler(() => {}, { telemetry: otel.telemetry });
    const request = new Request('http://127.0.0.1/hook', { method: 'POST', body: validJson, headers });
    return (await handle(request)).status;
  },
  node: async (headers) => {
    const server = await startServer(createNodeWebhookHandler(() => {}, { telemetry: otel.telemetry }));
    try {
      return (await fetch(server.url, { method: 'POST', body: validJson, headers })).status;
    } finally {
      await server.close();
    }
  },
};

const malformed = [
  `01-${traceId}-${parentId}-01`, // another version
  `00-${traceId.toUpperCase()}-${parentId}-01`,
  `00-${'0'.repeat(32)}-${parentId}-01`,
  `00-${traceId}-${'0'.repeat(16)}-01`,
  `00-${traceId}-${parentId}-1`,
  `00-${traceId}-${parentId}-01-extra`,
  'garbage',
];

describe.each(Object.entries(receivers))('the %s receiver and traceparent', (_, deliver) => {
  it("continues the sender's trace: the span's trace id and parent are the header's", async () => {
    expect(await deliver({ traceparent: header })).toBe(200);
    const [span] = otel.named('webhooks.receive');
    expect(span!.spanContext().traceId).toBe(traceId);
    expect(span!.parentSpanContext?.spanId).toBe(parentId);
    expect(span!.parentSpanContext?.isRemote).toBe(true);
  });

  it('ignores a malformed header: a trace of its own, no parent', async () => {
    for (const value of malformed) {
      otel.reset();
      expect(await deliver({ traceparent: value })).toBe(200);
      const [span] = otel.named('webhooks.receive');
      expect(span!.spanContext().traceId).not.toBe(traceId);
      expect(span!.parentSpanContext).toBeUndefined();
    }
  });
});

it('a span already active (an HTTP server instrumentation) stays the parent', async () => {
  const handle = createWebhookHandler(() => {}, { telemetry: otel.telemetry });
  const outer = otel.tracer().startSpan('http server');
  await context.with(trace.setSpan(context.active(), outer), () =>
    handle(
      new Request('http://127.0.0.1/hook', {
        method: 'POST',
        body: validJson,
        headers: { traceparent: header },
      }),
    ),
  );
  outer.end();
  const [span] = otel.named('webhooks.receive');
  expect(span!.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
});

describe('parseTraceparent', () => {
  it('reads a valid header (surrounding spaces trimmed), and refuses the rest', () => {
    expect(parseTraceparent(` ${header} `)).toEqual({
      traceId,
      spanId: parentId,
      traceFlags: 1,
      isRemote: true,
    });
    expect(parseTraceparent(`00-${traceId}-${parentId}-00`)?.traceFlags).toBe(0);
    for (const value of [...malformed, undefined, [header, header], `${header}, ${header}`]) {
      expect(parseTraceparent(value)).toBeUndefined();
    }
  });
});

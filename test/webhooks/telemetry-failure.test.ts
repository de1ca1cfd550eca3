// A tracer or meter that throws costs the receiver its telemetry, never its answer: the Fetch handler
// still resolves, the Node handler still answers 200, the callback runs once, and onError is told.
import { describe, expect, it, vi } from 'vitest';
import { MetricError } from '../../src/core/errors.js';
import type { TelemetryOptions } from '../../src/core/telemetry-types.js';
import { createNodeWebhookHandler, createWebhookHandler } from '../../src/webhooks/index.js';
import { validJson } from './fixtures.js';
import { startServer } from './node-server.js';

const broken = (what: string) => () => {
  throw new Error(`${what} broke`);
};

/** A span whose `setAttribute` throws, as a faulty exporter wrapper might. */
const throwingSpan = {
  setAttribute: broken('setAttribute'),
  setStatus: () => {},
  end: () => {},
  recordException: () => {},
  addEvent: () => {},
};

const providers: Record<string, TelemetryOptions> = {
  'getTracer throws': { tracerProvider: { getTracer: broken('getTracer') } },
  'a span throws after the callback': {
    tracerProvider: {
      getTracer: () => ({
        startSpan: () => throwingSpan,
        startActiveSpan: (_name: string, _options: unknown, fn: (span: unknown) => unknown) =>
          fn(throwingSpan),
      }),
    },
  } as unknown as TelemetryOptions,
  'the counter throws': {
    meterProvider: {
      getMeter: () => ({ createCounter: () => ({ add: broken('add') }), createHistogram: () => ({}) }),
    },
  } as unknown as TelemetryOptions,
};

describe.each(Object.entries(providers))('telemetry that fails (%s)', (_, telemetry) => {
  it('the Fetch handler resolves 200, runs the callback once and tells onError', async () => {
    const onEvent = vi.fn();
    const onError = vi.fn();
    const handle = createWebhookHandler(onEvent, { telemetry, onError });
    for (let delivery = 1; delivery <= 2; delivery++) {
      const response = await handle(
        new Request('http://127.0.0.1/hook', { method: 'POST', body: validJson }),
      );
      expect(response.status).toBe(200);
      expect(onEvent).toHaveBeenCalledTimes(delivery);
    }
    expect(onError).toHaveBeenCalledTimes(2);
    const [error] = onError.mock.calls[0]!;
    expect(error).toBeInstanceOf(MetricError);
    expect((error as MetricError).cause).toMatchObject({ message: expect.stringMatching(/broke$/) });
  });

  it('the Node handler answers 200 and runs the callback once', async () => {
    const onEvent = vi.fn();
    const onError = vi.fn();
    const server = await startServer(createNodeWebhookHandler(onEvent, { telemetry, onError }));
    try {
      const response = await fetch(server.url, { method: 'POST', body: validJson });
      expect(response.status).toBe(200);
      expect(onEvent).toHaveBeenCalledTimes(1);
      expect(onError).toHaveBeenCalledTimes(1);
    } finally {
      await server.close();
    }
  });
});

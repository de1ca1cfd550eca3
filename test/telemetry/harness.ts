/**
 * The real OpenTelemetry SDK as an application sets it up, for one test file: a tracer provider
 * with an in-memory exporter, a meter provider read on demand, the async-hooks context manager and
 * the W3C propagator (restored after the file), and the undici instrumentation on Node's fetch.
 */
import { context, metrics, propagation, type Tracer, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  AggregationTemporality,
  type DataPoint,
  MeterProvider,
  MetricReader,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { TelemetryOptions } from '../../src/index.js';

/** A reader whose `collect()` the test calls; cumulative, so a sequence of calls adds up. */
class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

export interface TelemetryHarness {
  /** The providers to hand the SDK (fresh for each test). */
  readonly telemetry: TelemetryOptions;
  /** Finished spans so far. */
  spans(): ReadableSpan[];
  /** The spans named `name`. */
  named(name: string): ReadableSpan[];
  /** The data points of one metric, collected now. */
  points(name: string): Promise<DataPoint<unknown>[]>;
  /** The whole collection, for checks over every metric. */
  collect(): Promise<ResourceMetrics>;
  /** The undici (HTTP client) spans. */
  httpSpans(): ReadableSpan[];
  /** A tracer of the test's own, for the caller's spans. */
  tracer(): Tracer;
  /** Fresh providers and no spans, within one test (a property test's runs). */
  reset(): void;
}

export function useTelemetry({ undici = true } = {}): TelemetryHarness {
  const exporter = new InMemorySpanExporter();
  let tracerProvider: BasicTracerProvider;
  let meterProvider: MeterProvider;
  let reader: TestReader;
  const contextManager = new AsyncLocalStorageContextManager();
  // Constructed enabled (undici's instrumentation subscribes then), when the file starts.
  let instrumentation: UndiciInstrumentation | undefined;

  const fresh = () => {
    exporter.reset();
    tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    reader = new TestReader();
    meterProvider = new MeterProvider({ readers: [reader] });
    instrumentation?.setTracerProvider(tracerProvider);
  };
  fresh();

  beforeAll(() => {
    context.setGlobalContextManager(contextManager.enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    if (undici) {
      instrumentation = new UndiciInstrumentation();
      instrumentation.setTracerProvider(tracerProvider);
    }
  });
  beforeEach(fresh);
  afterAll(() => {
    instrumentation?.disable();
    context.disable();
    propagation.disable();
  });

  const collect = async () => {
    const { resourceMetrics, errors } = await reader.collect();
    if (errors.length > 0) throw errors[0];
    return resourceMetrics;
  };
  return {
    get telemetry() {
      return { tracerProvider, meterProvider };
    },
    spans: () => exporter.getFinishedSpans(),
    named: (name) => exporter.getFinishedSpans().filter((span) => span.name === name),
    httpSpans: () =>
      exporter.getFinishedSpans().filter((span) => span.instrumentationScope.name.includes('undici')),
    collect,
    tracer: () => tracerProvider.getTracer('test'),
    reset: fresh,
    async points(name) {
      const metrics = await collect();
      const metric = metrics.scopeMetrics
        .flatMap((scope) => scope.metrics)
        .find((m) => m.descriptor.name === name);
      return (metric?.dataPoints ?? []) as DataPoint<unknown>[];
    },
  };
}

/** The span's parent span id, whichever field this SDK version keeps it in. */
export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

// Compile-time: the SDK's structural types take the OpenTelemetry API's own providers as they are.
export const apiProvidersFit: TelemetryOptions = {
  tracerProvider: trace.getTracerProvider(),
  meterProvider: metrics.getMeterProvider(),
};

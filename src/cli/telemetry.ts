import type { TelemetryOptions } from '../core/telemetry-types.js';
import { UsageError } from './errors.js';

/*
 * The command line's own OpenTelemetry: with OTEL_EXPORTER_OTLP_ENDPOINT set, its traces and metrics
 * go over OTLP/HTTP to that endpoint. The OpenTelemetry SDK and exporters are optional peer
 * dependencies, loaded only then: installing the package never pulls them in.
 */

/** What the run hands its clients, and how it flushes before it exits. */
export interface CliTelemetry {
  readonly options: TelemetryOptions;
  /** Exports what is left and stops; within a few seconds even when the collector does not answer. */
  shutdown(): Promise<void>;
}

/** The packages the export needs, as `npm install` takes them. */
export const telemetryPackages = [
  '@opentelemetry/api',
  '@opentelemetry/context-async-hooks',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/sdk-metrics',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/exporter-metrics-otlp-http',
];

/** How long the last export may take before the command exits without it. */
const shutdownMs = 5_000;

/** The command line's telemetry, or `undefined` when OTEL_EXPORTER_OTLP_ENDPOINT is not set. */
export async function startTelemetry(env: Readonly<Record<string, string | undefined>>) {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, '');
  if (!endpoint) return undefined;
  const [api, hooks, resources, traces, metrics, traceExporter, metricExporter] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/exporter-metrics-otlp-http'),
  ]).catch((error: unknown) => {
    throw new UsageError(
      `OTEL_EXPORTER_OTLP_ENDPOINT is set, but the OpenTelemetry packages to export with are missing ` +
        `(${(error as Error).message.split('\n')[0]}): npm install ${telemetryPackages.join(' ')}`,
    );
  });
  const resource = resources.resourceFromAttributes({
    'service.name': env.OTEL_SERVICE_NAME || 'scholarly-metrics-cli',
  });
  const tracerProvider = new traces.BasicTracerProvider({
    resource,
    spanProcessors: [
      new traces.BatchSpanProcessor(new traceExporter.OTLPTraceExporter({ url: `${endpoint}/v1/traces` })),
    ],
  });
  const meterProvider = new metrics.MeterProvider({
    resource,
    readers: [
      new metrics.PeriodicExportingMetricReader({
        exporter: new metricExporter.OTLPMetricExporter({ url: `${endpoint}/v1/metrics` }),
      }),
    ],
  });
  // The command line is an application: it may own the context manager, so that a call's span is the
  // parent of those it makes (getMany's lookups). One already set (a test's, a host's) is kept.
  const contextManager = new hooks.AsyncLocalStorageContextManager();
  const owned = api.context.setGlobalContextManager(contextManager.enable());
  return {
    options: { tracerProvider, meterProvider },
    async shutdown() {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, shutdownMs);
      });
      const flushed = Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
      await Promise.race([flushed, late]);
      clearTimeout(timer);
      if (owned) api.context.disable();
      else contextManager.disable();
    },
  } satisfies CliTelemetry;
}

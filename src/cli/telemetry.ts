import type { TelemetryOptions } from '../index.js';
import { UsageError } from './errors.js';
import { exportHeaders, exports, resourceAttributes, samplerOf, telemetryDisabled } from './otel-env.js';
import { envProxyOn } from './proxy-hint.js';
import { maskedUrl } from './secrets.js';

/*
 * The command line's own OpenTelemetry: with an OTLP endpoint set, its traces and metrics go over
 * OTLP/HTTP there. The OpenTelemetry SDK and exporters are optional peer dependencies, loaded only
 * then: installing the package never pulls them in. The collector never decides when the bin exits:
 * the last export is bounded as a whole, and its requests are cut at the bound.
 */

/** What the run hands its clients, and how it flushes before it exits. */
export interface CliTelemetry {
  readonly options: TelemetryOptions;
  /**
   * Exports what is left and stops: within {@link flushBoundMs}, or {@link interruptedFlushMs} once
   * `signal` aborts (Ctrl-C), whichever comes first; the exporters' requests still open then are
   * cut. Never rejects.
   */
  shutdown(signal: AbortSignal): Promise<void>;
}

/**
 * The packages the export needs, as `npm install` takes them: OpenTelemetry's 2.x line, pinned. Its
 * trace SDK (sdk-trace-base) has no 3.x, and refuses the API that the other 3.x packages require, so
 * an install without versions cannot be resolved.
 */
export const telemetryPackages = [
  '@opentelemetry/api@1.9',
  '@opentelemetry/context-async-hooks@2',
  '@opentelemetry/resources@2',
  '@opentelemetry/sdk-trace-base@2',
  '@opentelemetry/sdk-metrics@2',
  '@opentelemetry/exporter-trace-otlp-http@0.223',
  '@opentelemetry/exporter-metrics-otlp-http@0.223',
];

/** How long the last export may take, all told, after the command's work. */
export const flushBoundMs = 2_000;
/** How long it may go on once Ctrl-C is pressed: the command still ends within the second docs/cli.md promises. */
export const interruptedFlushMs = 500;

/** The variables that say where to export: every signal below one URL, or each at its own. */
export const endpointVariables = {
  all: 'OTEL_EXPORTER_OTLP_ENDPOINT',
  traces: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  metrics: 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
} as const;

/** Where each signal goes; a signal without an endpoint is not exported. */
export interface Endpoints {
  readonly traces: string | undefined;
  readonly metrics: string | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The export's URLs, as OpenTelemetry's variables give them: a signal's own variable as it is, else
 * `OTEL_EXPORTER_OTLP_ENDPOINT` with `/v1/traces` or `/v1/metrics` after it. `undefined` when none
 * is set. A value that is not an http(s) URL is a usage error naming its variable.
 */
export function exportEndpoints(env: Env): Endpoints | undefined {
  const value = (name: string) => {
    const given = env[name]?.trim();
    return given ? checkedEndpoint(name, given) : undefined;
  };
  const all = value(endpointVariables.all)?.replace(/(?<!\/)\/+$/, '');
  const traces = value(endpointVariables.traces) ?? (all && `${all}/v1/traces`);
  const metrics = value(endpointVariables.metrics) ?? (all && `${all}/v1/metrics`);
  return traces === undefined && metrics === undefined ? undefined : { traces, metrics };
}

function checkedEndpoint(name: string, value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // Reported below, the value masked.
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new UsageError(
      `${name} expects an http:// or https:// URL, e.g. http://127.0.0.1:4318 (got ${maskedUrl(value)})`,
    );
  }
  return value;
}

/**
 * Waits for `flush` until it settles, `boundMs` pass or `interruptedMs` pass after `signal` aborts,
 * whichever comes first; at a bound, calls `cut` (which ends what the flush still waits for).
 * Resolves with how it ended; never rejects.
 */
export function boundedFlush(
  flush: Promise<unknown>,
  cut: () => void,
  signal: AbortSignal,
  { boundMs = flushBoundMs, interruptedMs = interruptedFlushMs } = {},
): Promise<'flushed' | 'cut'> {
  return new Promise((resolve) => {
    const timers: ReturnType<typeof setTimeout>[] = [];
    let done = false;
    const finish = (outcome: 'flushed' | 'cut') => {
      if (done) return;
      done = true;
      for (const timer of timers) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (outcome === 'cut') cut();
      resolve(outcome);
    };
    const onAbort = () => timers.push(setTimeout(() => finish('cut'), interruptedMs));
    timers.push(setTimeout(() => finish('cut'), boundMs));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    flush.then(
      () => finish('flushed'),
      () => finish('flushed'),
    );
  });
}

/**
 * The exporters' HTTP agents: destroying them ends every request they still have open. With
 * `NODE_USE_ENV_PROXY=1` they go through the proxy the environment names, as the API requests do.
 */
function exportAgents(env: Env) {
  const agents: { destroy(): void }[] = [];
  let destroyed = false;
  return {
    async create(protocol: string) {
      const http = protocol === 'https:' ? await import('node:https') : await import('node:http');
      // `proxyEnv` (Node 22.21, 24.5): Node's own agent reads the variables; one made here is told to.
      const agent = new http.Agent({ keepAlive: false, ...(envProxyOn(env) && { proxyEnv: env }) });
      agents.push(agent);
      if (destroyed) agent.destroy();
      return agent;
    },
    destroy() {
      destroyed = true;
      for (const agent of agents) agent.destroy();
    },
  };
}

async function loadPackages() {
  return Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/exporter-metrics-otlp-http'),
  ]).catch((error: unknown) => {
    throw new UsageError(
      `an OTLP endpoint is set, but the OpenTelemetry packages to export with are missing ` +
        `(${(error as Error).message.split('\n')[0]}): npm install ${telemetryPackages.join(' ')}`,
    );
  });
}

/** Where each signal goes once `OTEL_*_EXPORTER` and `OTEL_SDK_DISABLED` are heard; `undefined`: nowhere. */
function exportedEndpoints(env: Env): Endpoints | undefined {
  if (telemetryDisabled(env)) return undefined;
  const given = exportEndpoints(env);
  if (given === undefined) return undefined;
  const traces = exports(env, 'TRACES') ? given.traces : undefined;
  const metrics = exports(env, 'METRICS') ? given.metrics : undefined;
  return traces === undefined && metrics === undefined ? undefined : { traces, metrics };
}

type Packages = Awaited<ReturnType<typeof loadPackages>>;

/** The providers exporting to `endpoints`, with the resource, headers and sampler the environment gives. */
function providers(
  env: Env,
  endpoints: Endpoints,
  packages: Packages,
  agents: ReturnType<typeof exportAgents>,
) {
  const [, , resources, traces, metrics, traceExporter, metricExporter] = packages;
  const resource = resources.resourceFromAttributes(resourceAttributes(env));
  // Each export gives up by the bound too, so that no retry of it is left waiting past it.
  const exporter = (url: string, signal: 'TRACES' | 'METRICS') => ({
    url,
    headers: exportHeaders(env, signal),
    timeoutMillis: flushBoundMs,
    // Said, or the exporter reads OTEL_EXPORTER_OTLP_COMPRESSION, which the command line does not.
    compression: 'none' as never,
    httpAgentOptions: agents.create,
  });
  const tracerProvider =
    endpoints.traces === undefined
      ? undefined
      : new traces.BasicTracerProvider({
          resource,
          sampler: samplerOf(env, traces),
          spanProcessors: [
            new traces.BatchSpanProcessor(
              new traceExporter.OTLPTraceExporter(exporter(endpoints.traces, 'TRACES')),
              { exportTimeoutMillis: flushBoundMs },
            ),
          ],
        });
  const meterProvider =
    endpoints.metrics === undefined
      ? undefined
      : new metrics.MeterProvider({
          resource,
          readers: [
            new metrics.PeriodicExportingMetricReader({
              exporter: new metricExporter.OTLPMetricExporter(exporter(endpoints.metrics, 'METRICS')),
              exportTimeoutMillis: flushBoundMs,
            }),
          ],
        });
  return { tracerProvider, meterProvider };
}

/**
 * The command line's telemetry, or `undefined` when no OTLP endpoint is set (or every signal is
 * turned off). The environment is read before anything loads: a bad value is a usage error at once.
 */
export async function startTelemetry(env: Env): Promise<CliTelemetry | undefined> {
  const endpoints = exportedEndpoints(env);
  if (endpoints === undefined) return undefined;
  resourceAttributes(env);
  exportHeaders(env, 'TRACES');
  exportHeaders(env, 'METRICS');
  const packages = await loadPackages();
  const [api, hooks] = packages;
  const agents = exportAgents(env);
  const { tracerProvider, meterProvider } = providers(env, endpoints, packages, agents);
  // The command line is an application: it may own the context manager, so that a call's span is the
  // parent of those it makes (getMany's lookups). One already set (a test's, a host's) is kept.
  const contextManager = new hooks.AsyncLocalStorageContextManager();
  const owned = api.context.setGlobalContextManager(contextManager.enable());
  return {
    options: { tracerProvider, meterProvider },
    async shutdown(signal) {
      const flush = Promise.allSettled([tracerProvider?.shutdown(), meterProvider?.shutdown()]);
      await boundedFlush(flush, agents.destroy, signal);
      if (owned) api.context.disable();
      else contextManager.disable();
    },
  };
}

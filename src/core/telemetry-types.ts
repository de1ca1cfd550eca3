import type { Route } from './endpoint.js';
import type { HeadersInput } from './headers.js';

/*
 * OpenTelemetry as the SDK sees it: the few members of the OpenTelemetry JS API 1.x that it calls,
 * declared structurally, so that any 1.x provider fits and no OpenTelemetry package is needed to
 * install or compile against the SDK. The implementation lives in src/telemetry and is loaded on
 * demand; core only calls the small interfaces at the end of this file.
 */

/**
 * Attribute values as OpenTelemetry takes them (the SDK only ever sets strings and numbers).
 *
 * @example
 * ```ts
 * import type { TelemetryAttributes } from 'scholarly-metrics';
 *
 * const attributes: TelemetryAttributes = { 'url.template': '/journals/{id}', 'server.port': 443 };
 * ```
 */
export type TelemetryAttributes = Record<string, string | number | boolean>;

/**
 * The parts of an OpenTelemetry `Span` the SDK uses. Not exported: you name the provider
 * ({@link TracerProviderLike}), and any OpenTelemetry 1.x span fits.
 */
export interface SpanLike {
  setAttribute(key: string, value: string | number | boolean): unknown;
  addEvent(name: string, attributes?: TelemetryAttributes): unknown;
  /** `code` 2 is ERROR. */
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/**
 * The parts of an OpenTelemetry `Tracer` the SDK uses: `startActiveSpan` makes the SDK's span the
 * active one in your context manager while a call runs. Not exported: you name the provider
 * ({@link TracerProviderLike}), and any OpenTelemetry 1.x tracer fits.
 */
export interface TracerLike {
  startActiveSpan<F extends (span: SpanLike) => unknown>(
    name: string,
    options: { kind?: number; attributes?: TelemetryAttributes },
    fn: F,
  ): ReturnType<F>;
}

/**
 * An OpenTelemetry `TracerProvider`, such as `trace.getTracerProvider()`.
 *
 * @example
 * ```ts
 * import { trace } from '@opentelemetry/api';
 * import type { TracerProviderLike } from 'scholarly-metrics';
 *
 * const tracerProvider: TracerProviderLike = trace.getTracerProvider();
 * ```
 */
export interface TracerProviderLike {
  getTracer(name: string, version?: string): TracerLike;
}

/**
 * What the SDK passes when it creates an instrument (`{ unit: 's', description: … }`). Not exported,
 * as {@link MeterLike} is not.
 */
export interface InstrumentOptionsLike {
  description?: string;
  unit?: string;
  advice?: { explicitBucketBoundaries?: number[] };
}

/**
 * An OpenTelemetry `Meter`: the kinds of instrument the SDK records with. Not exported: you name the
 * provider ({@link MeterProviderLike}), and any OpenTelemetry 1.x meter fits.
 */
export interface MeterLike {
  createHistogram(
    name: string,
    options?: InstrumentOptionsLike,
  ): { record(value: number, attributes?: TelemetryAttributes): void };
  createCounter(
    name: string,
    options?: InstrumentOptionsLike,
  ): { add(value: number, attributes?: TelemetryAttributes): void };
  /** For the quota's gauges (calls waiting, in flight); a meter without it records neither. */
  createUpDownCounter?(
    name: string,
    options?: InstrumentOptionsLike,
  ): { add(value: number, attributes?: TelemetryAttributes): void };
}

/**
 * An OpenTelemetry `MeterProvider`, such as `metrics.getMeterProvider()`.
 *
 * @example
 * ```ts
 * import { metrics } from '@opentelemetry/api';
 * import type { MeterProviderLike } from 'scholarly-metrics';
 *
 * const meterProvider: MeterProviderLike = metrics.getMeterProvider();
 * ```
 */
export interface MeterProviderLike {
  getMeter(name: string, version?: string): MeterLike;
}

/**
 * The `telemetry` option of `new MetricClient()` and of the webhook receivers: your OpenTelemetry
 * providers, either or both. The SDK never registers anything globally. See docs/observability.md.
 *
 * @example
 * ```ts
 * import { metrics, trace } from '@opentelemetry/api';
 * import type { TelemetryOptions } from 'scholarly-metrics';
 *
 * const telemetry: TelemetryOptions = {
 *   tracerProvider: trace.getTracerProvider(),
 *   meterProvider: metrics.getMeterProvider(),
 * };
 * const client = new MetricClient({ apiKey, baseUrl, telemetry });
 * ```
 */
export interface TelemetryOptions {
  /** Spans: one per call, one per webhook delivery. @default no spans */
  tracerProvider?: TracerProviderLike | undefined;
  /** Metrics: durations, retries, quota waits, cache lookups, deliveries. @default no metrics */
  meterProvider?: MeterProviderLike | undefined;
}

/** What the transport tells the telemetry of one call's attempts. */
export interface AttemptTelemetry {
  /** `send` as the quota runs it, timed from now: the wait for its turn is recorded when it runs. */
  inTurn<R>(send: () => Promise<R>): () => Promise<R>;
  /** An attempt got a response with this status. */
  answered(status: number): void;
  /** Attempt number `attempt` failed with `error` and is retried after `delayMs`. */
  retrying(attempt: number, delayMs: number, error: Error): void;
}

/** How a call is described to the telemetry: its route (for the URL template and paging) and a summary. */
export interface CallDescription<R> {
  readonly route?: (() => Route) | undefined;
  /** The endpoint's path template (`/journals/{id}`), when the call is one request of an endpoint. */
  readonly template?: string | undefined;
  /** Attributes read off the result, set on the call's span (getMany's counts). */
  readonly summarize?: ((result: R) => TelemetryAttributes) | undefined;
  /** The call's own headers: their values are kept out of what is recorded, as the client's are. */
  readonly headers?: HeadersInput | undefined;
}

/** The client's telemetry as core calls it: each call of a method runs through `call`. */
export interface CallTelemetry {
  /** Runs `run` as one call of `method` (`journals.get`): its span active meanwhile, its metrics recorded. */
  call<R>(
    method: string,
    description: CallDescription<R>,
    run: (attempts: AttemptTelemetry | undefined) => Promise<R>,
  ): Promise<R>;
}

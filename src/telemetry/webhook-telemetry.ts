import type { MeterLike, SpanLike, TelemetryOptions, TracerLike } from '../core/telemetry-types.js';
import { parseTraceparent, type RemoteParent } from './traceparent.js';

/*
 * The scope, span kind and error status of ./instruments.ts, written here rather than imported: the
 * client's entry re-exports the receivers, so a module shared with the client's on-demand telemetry
 * would become a chunk that a splitting bundler makes the client's first load import.
 */
const scope = 'scholarly-metrics';
const serverKind = 1;
const errorStatus = 2;

function deliveryCounter(meter: MeterLike) {
  return meter.createCounter('scholarly_metrics.webhooks.deliveries', {
    description: 'Webhook deliveries received, by the status code answered',
    unit: '{delivery}',
  });
}

/** What a receiver learnt of one delivery: its answer's status, and the event's journal once parsed. */
export interface DeliveryOutcome {
  readonly status: number;
  readonly journalId: number | undefined;
}

/** The few members of `@opentelemetry/api` that continue a remote trace. */
interface TraceApi {
  context: { active(): unknown };
  trace: {
    getSpanContext(context: unknown): { traceId: string; spanId: string } | undefined;
    isSpanContextValid(spanContext: { traceId: string; spanId: string }): boolean;
    setSpanContext(context: unknown, spanContext: RemoteParent): unknown;
  };
}

/** `startActiveSpan` with its parent context given, as every OpenTelemetry tracer takes it. */
type TracerWithContext = {
  startActiveSpan<F extends (span: SpanLike) => unknown>(
    name: string,
    options: { kind?: number },
    context: unknown,
    fn: F,
  ): ReturnType<F>;
};

/**
 * The OpenTelemetry API, to continue an incoming trace; `undefined` where it is not installed (the
 * header is then ignored). Only read from: the SDK registers nothing. Kept from bundlers, which
 * would otherwise fail a build that has no OpenTelemetry at all.
 */
async function loadTraceApi(): Promise<TraceApi | undefined> {
  const name = '@opentelemetry/api';
  try {
    return (await import(/* webpackIgnore: true */ /* @vite-ignore */ name)) as TraceApi;
  } catch {
    return undefined;
  }
}

/**
 * The context a delivery's span starts in: the active one, with the header's remote parent when the
 * header is valid and no span is active already (an HTTP server instrumentation's span has continued
 * the trace itself, and stays the parent). `undefined`: start as usual.
 */
function parentContext(api: TraceApi | undefined, traceparent: unknown): unknown {
  const remote = api && parseTraceparent(traceparent);
  if (api === undefined || remote === undefined) return undefined;
  const active = api.context.active();
  const current = api.trace.getSpanContext(active);
  if (current !== undefined && api.trace.isSpanContextValid(current)) return undefined;
  return api.trace.setSpanContext(active, remote);
}

/**
 * A receiver's telemetry: a SERVER span per delivery (`webhooks.receive`, active while the callback
 * runs, continuing the sender's `traceparent`) and the deliveries counter by status code.
 */
export async function deliveryTelemetry(
  options: TelemetryOptions,
  version: string,
  failed: (error: unknown) => void,
) {
  // A tracer or a meter that throws costs the deliveries their spans or their counts, not both; each
  // delivery tells `failed` of it.
  const lost: unknown[] = [];
  const made = <T>(make: () => T): T | undefined => {
    try {
      return make();
    } catch (error) {
      lost.push(error);
    }
  };
  const tracer = made(() => options.tracerProvider?.getTracer(scope, version));
  const meter = made(() => options.meterProvider?.getMeter(scope, version));
  const deliveries = meter && made(() => deliveryCounter(meter));
  const api = tracer && (await loadTraceApi());
  const recorded = <R extends DeliveryOutcome>(outcome: R): R => {
    deliveries?.add(1, { 'http.response.status_code': outcome.status });
    return outcome;
  };
  return <R extends DeliveryOutcome>(receive: () => Promise<R>, traceparent?: unknown): Promise<R> => {
    for (const error of lost) failed(error);
    if (tracer === undefined) return receive().then(recorded);
    const inSpan = async (span: SpanLike) => {
      try {
        const outcome = recorded(await receive());
        span.setAttribute('http.response.status_code', outcome.status);
        if (outcome.journalId !== undefined)
          span.setAttribute('scholarly_metrics.journal_id', outcome.journalId);
        // A server span is in error for a 5xx only: a 4xx is the sender's mistake.
        if (outcome.status >= 500) span.setStatus({ code: errorStatus });
        return outcome;
      } finally {
        span.end();
      }
    };
    const parent = parentContext(api, traceparent);
    return parent === undefined
      ? tracer.startActiveSpan('webhooks.receive', { kind: serverKind }, inSpan)
      : withContext(tracer).startActiveSpan('webhooks.receive', { kind: serverKind }, parent, inSpan);
  };
}

function withContext(tracer: TracerLike): TracerWithContext {
  return tracer as unknown as TracerWithContext;
}

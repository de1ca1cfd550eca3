import type { TelemetryOptions } from '../core/telemetry-types.js';
import { VERSION } from '../core/user-agent.js';
import { deliveryCounter, errorStatus, meterOf, spanKind, tracerOf } from './instruments.js';

/** What a receiver learnt of one delivery: its answer's status, and the event's journal once parsed. */
export interface DeliveryOutcome {
  readonly status: number;
  readonly journalId: number | undefined;
}

/**
 * A receiver's telemetry: a SERVER span per delivery (`webhooks.receive`, active while the callback
 * runs) and the deliveries counter by status code.
 */
export function deliveryTelemetry(options: TelemetryOptions) {
  const tracer = tracerOf(options, VERSION);
  const meter = meterOf(options, VERSION);
  const deliveries = meter && deliveryCounter(meter);
  const recorded = <R extends DeliveryOutcome>(outcome: R): R => {
    deliveries?.add(1, { 'http.response.status_code': outcome.status });
    return outcome;
  };
  return <R extends DeliveryOutcome>(receive: () => Promise<R>): Promise<R> => {
    if (tracer === undefined) return receive().then(recorded);
    return tracer.startActiveSpan('webhooks.receive', { kind: spanKind.server }, async (span) => {
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
    });
  };
}

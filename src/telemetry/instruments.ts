import type { MeterLike, TelemetryOptions, TracerLike } from '../core/telemetry-types.js';

/** The tracer's and meter's name: the package's. */
export const instrumentationName = 'scholarly-metrics';

/** OpenTelemetry's numbers for a span kind and a status, which the SDK cannot import. */
export const spanKind = { internal: 0, server: 1 } as const;
export const errorStatus = 2;

/** Bucket bounds for durations in seconds: from a fast loopback answer to a backoff of a minute. */
const secondsBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The SDK's tracer, if a tracer provider was given. */
export function tracerOf(options: TelemetryOptions, version: string): TracerLike | undefined {
  return options.tracerProvider?.getTracer(instrumentationName, version);
}

/** The SDK's meter, if a meter provider was given. */
export function meterOf(options: TelemetryOptions, version: string): MeterLike | undefined {
  return options.meterProvider?.getMeter(instrumentationName, version);
}

/** The client's instruments. */
export function clientInstruments(meter: MeterLike) {
  return {
    duration: meter.createHistogram('scholarly_metrics.client.duration', {
      description: 'How long each call of the SDK took, its retries, quota waits and cache included',
      unit: 's',
      advice: { explicitBucketBoundaries: secondsBuckets },
    }),
    retries: meter.createCounter('scholarly_metrics.client.retries', {
      description: 'Attempts that failed and were retried',
      unit: '{retry}',
    }),
    quotaWait: meter.createHistogram('scholarly_metrics.quota.wait', {
      description: 'How long each attempt waited for its place in the quota (local or shared in Redis)',
      unit: 's',
      advice: { explicitBucketBoundaries: [0, ...secondsBuckets] },
    }),
    cacheLookups: meter.createCounter('scholarly_metrics.cache.lookups', {
      description: 'Calls answered through the cache: hit, stale (served past its lifetime) or miss',
      unit: '{lookup}',
    }),
    quotaUnavailable: meter.createCounter('scholarly_metrics.quota.unavailable', {
      description:
        'Calls refused with QuotaUnavailableError: the shared quota could not tell (Redis failed, or the quota was closed)',
      unit: '{error}',
    }),
    quotaWaiting: meter.createUpDownCounter?.('scholarly_metrics.quota.waiting', {
      description: "This process's attempts waiting for a place in the quota",
      unit: '{request}',
    }),
    quotaInFlight: meter.createUpDownCounter?.('scholarly_metrics.quota.in_flight', {
      description: "This process's attempts holding a place in the quota: sent, not yet answered",
      unit: '{request}',
    }),
  };
}

export type ClientInstruments = ReturnType<typeof clientInstruments>;

import { ConfigurationError } from '../errors.js';
import type { TelemetryOptions } from '../telemetry-types.js';

/** Checks a `telemetry` option: an object with a tracer provider, a meter provider, or both. */
export function checkTelemetryOption(value: unknown): TelemetryOptions | undefined {
  const { tracerProvider: tracers, meterProvider: meters } = (value ?? {}) as TelemetryOptions;
  if (
    value !== undefined &&
    (typeof value !== 'object' ||
      !(tracers || meters) ||
      (tracers && typeof tracers.getTracer !== 'function') ||
      (meters && typeof meters.getMeter !== 'function'))
  ) {
    throw new ConfigurationError(
      'telemetry',
      '`telemetry` must hold a tracerProvider, a meterProvider or both',
    );
  }
  return value as TelemetryOptions | undefined;
}

import { ConfigurationError } from '../core/errors.js';
import type { CallTelemetry, TelemetryOptions } from '../core/telemetry-types.js';
import type { ClientIdentity } from './client-telemetry.js';

/*
 * What every client and receiver given `telemetry` loads at once: the option's check and a stand-in
 * that loads the implementation with the first call. Without the option, none of src/telemetry runs,
 * and its implementation is never downloaded.
 */

/** Checks a `telemetry` option: an object with a tracer provider, a meter provider, or both. */
export function checkTelemetryOption(value: unknown): TelemetryOptions | undefined {
  if (value === undefined) return undefined;
  const { tracerProvider, meterProvider } = (value ?? {}) as TelemetryOptions;
  if (typeof value !== 'object' || value === null || (!tracerProvider && !meterProvider)) {
    throw new ConfigurationError(
      'telemetry',
      '`telemetry` must be { tracerProvider, meterProvider } (either or both)',
    );
  }
  for (const [name, provider, method] of [
    ['tracerProvider', tracerProvider, 'getTracer'],
    ['meterProvider', meterProvider, 'getMeter'],
  ] as const) {
    if (
      provider !== undefined &&
      typeof (provider as unknown as Record<string, unknown>)?.[method] !== 'function'
    ) {
      throw new ConfigurationError(
        `telemetry.${name}`,
        `\`telemetry.${name}\` must have a ${method}() method`,
      );
    }
  }
  return value as TelemetryOptions;
}

/** The client's telemetry, its implementation loaded with the first call. */
export function lazyClientTelemetry(options: TelemetryOptions, identity: ClientIdentity): CallTelemetry {
  let loaded: CallTelemetry | undefined;
  let loading: Promise<CallTelemetry | undefined> | undefined;
  return {
    call(method, description, run) {
      if (loaded !== undefined) return loaded.call(method, description, run);
      loading ??= import('./client-telemetry.js').then(
        ({ ClientTelemetry }) => {
          loaded = new ClientTelemetry(options, identity);
          return loaded;
        },
        // Telemetry never costs a call: a chunk that failed to load leaves the calls untraced.
        () => undefined,
      );
      return loading.then((telemetry) =>
        telemetry ? telemetry.call(method, description, run) : run(undefined),
      );
    },
  };
}

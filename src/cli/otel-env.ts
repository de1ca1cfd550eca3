/**
 * OpenTelemetry's standard environment variables, as the command line honours them beside the
 * endpoints (telemetry.ts): the resource (`OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`), the
 * exporters' headers (`OTEL_EXPORTER_OTLP_HEADERS` and each signal's own), the sampler
 * (`OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG`), `OTEL_TRACES_EXPORTER` / `OTEL_METRICS_EXPORTER`
 * (`otlp` or `none`) and `OTEL_SDK_DISABLED`. Read from the run's environment, which a test gives.
 * A value that cannot be read is a usage error naming its variable and quoting none of it: headers
 * hold tokens.
 */
import { UsageError } from './errors.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The service's name when neither `OTEL_SERVICE_NAME` nor `OTEL_RESOURCE_ATTRIBUTES` gives one. */
export const defaultServiceName = 'scholarly-metrics-cli';

/**
 * A list of `key=value` pairs separated by commas, each key and value percent-decoded and trimmed,
 * as OpenTelemetry writes resource attributes and headers. Empty entries are skipped.
 */
export function keyValueList(env: Env, name: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  const given = env[name]?.trim();
  if (!given) return pairs;
  for (const [index, entry] of given.split(',').entries()) {
    if (entry.trim() === '') continue;
    const at = entry.indexOf('=');
    const key = at <= 0 ? '' : decoded(entry.slice(0, at).trim());
    const value = at <= 0 ? undefined : decoded(entry.slice(at + 1).trim());
    if (!key || value === undefined) {
      throw new UsageError(
        `${name} expects key=value pairs separated by commas, percent-encoded (entry ${index + 1} is not one)`,
      );
    }
    pairs[key] = value;
  }
  return pairs;
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The resource's attributes: `OTEL_RESOURCE_ATTRIBUTES`, `service.name` from `OTEL_SERVICE_NAME` first. */
export function resourceAttributes(env: Env): Record<string, string> {
  const attributes = keyValueList(env, 'OTEL_RESOURCE_ATTRIBUTES');
  const service = env.OTEL_SERVICE_NAME?.trim() || attributes['service.name'] || defaultServiceName;
  return { ...attributes, 'service.name': service };
}

/** The headers of one signal's export: the common ones, the signal's own replacing any of the same name. */
export function exportHeaders(env: Env, signal: 'TRACES' | 'METRICS'): Record<string, string> {
  return {
    ...keyValueList(env, 'OTEL_EXPORTER_OTLP_HEADERS'),
    ...keyValueList(env, `OTEL_EXPORTER_OTLP_${signal}_HEADERS`),
  };
}

/** Whether the signal is exported at all: `OTEL_{signal}_EXPORTER` is `otlp` (the default) or `none`. */
export function exports(env: Env, signal: 'TRACES' | 'METRICS'): boolean {
  const name = `OTEL_${signal}_EXPORTER`;
  const value = env[name]?.trim().toLowerCase();
  if (!value || value === 'otlp') return true;
  if (value === 'none') return false;
  throw new UsageError(`${name} may be otlp or none here (the command line exports over OTLP/HTTP alone)`);
}

/** `OTEL_SDK_DISABLED=true`: no telemetry at all. */
export function telemetryDisabled(env: Env): boolean {
  return env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true';
}

/** The samplers of the SDK the command line builds from `OTEL_TRACES_SAMPLER`. */
export interface SamplerKinds<S> {
  AlwaysOnSampler: new () => S;
  AlwaysOffSampler: new () => S;
  TraceIdRatioBasedSampler: new (ratio: number) => S;
  ParentBasedSampler: new (options: { root: S }) => S;
}

export const samplerNames = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/** The sampler `OTEL_TRACES_SAMPLER` (and `_ARG`, a ratio from 0 to 1) name: parent-based always-on by default. */
export function samplerOf<S>(env: Env, kinds: SamplerKinds<S>): S {
  const name = (env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on') as string;
  if (!(samplerNames as readonly string[]).includes(name)) {
    throw new UsageError(`OTEL_TRACES_SAMPLER may be one of ${samplerNames.join(', ')}`);
  }
  const root = name.replace(/^parentbased_/, '');
  const sampler =
    root === 'always_on'
      ? new kinds.AlwaysOnSampler()
      : root === 'always_off'
        ? new kinds.AlwaysOffSampler()
        : new kinds.TraceIdRatioBasedSampler(samplerRatio(env));
  return name.startsWith('parentbased_') ? new kinds.ParentBasedSampler({ root: sampler }) : sampler;
}

function samplerRatio(env: Env): number {
  const given = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (!given) return 1;
  const ratio = Number(given);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) {
    throw new UsageError('OTEL_TRACES_SAMPLER_ARG expects a ratio from 0 to 1, e.g. 0.25');
  }
  return ratio;
}

/**
 * One span per command, the root of its trace: named after the command (`scholarly-metrics papers
 * search`), active while it runs, so that the spans of its calls (a walk's pages, getMany's lookups)
 * are its children rather than a trace each. Only the error's class is recorded, never its text.
 */
import type { Command } from 'commander';
import { version } from '../../package.json';
import type { TelemetryOptions } from '../index.js';

/** OpenTelemetry's numbers for an internal span and an ERROR status (the API is not imported here). */
const internalKind = 0;
const errorStatus = 2;

/** The command as typed: the program's name and each subcommand's (`scholarly-metrics papers search`). */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** A class name as JavaScript spells one; any other `name` is text of whoever threw. */
const className = /^[A-Za-z_$][\w$]{0,63}$/;

function errorType(error: unknown): string {
  if (!(error instanceof Error)) return '_OTHER';
  return className.test(error.name) ? error.name : 'Error';
}

/**
 * Runs `work` inside the command's span when the run traces; a failure marks it ERROR with the
 * error's class, a stop by Ctrl-C does not (the user asked for it).
 */
export function inCommandSpan<T>(
  telemetry: TelemetryOptions | undefined,
  command: Command,
  signal: AbortSignal,
  work: () => Promise<T>,
): Promise<T> {
  const tracer = telemetry?.tracerProvider?.getTracer('scholarly-metrics', version);
  if (tracer === undefined) return work();
  return tracer.startActiveSpan(commandPath(command), { kind: internalKind }, async (span) => {
    try {
      return await work();
    } catch (error) {
      if (signal.aborted) span.setAttribute('scholarly_metrics.cli.interrupted', true);
      else {
        const type = errorType(error);
        span.setAttribute('error.type', type);
        span.setStatus({ code: errorStatus, message: type });
      }
      throw error;
    } finally {
      span.end();
    }
  });
}

import { inspect } from 'node:util';
import type { Logger } from '../../src/index.js';

/** One line a client logged. */
export interface LoggedLine {
  level: keyof Logger;
  message: string;
  details: Record<string, unknown> | undefined;
}

/**
 * A Logger that keeps every line. `rendered()` gives each line as a log shipper would write it (its
 * details as JSON and through `inspect`, in depth), for the checks that a secret is in no line.
 */
export function recordingLogger() {
  const lines: LoggedLine[] = [];
  const at =
    (level: keyof Logger) =>
    (message: string, details?: Record<string, unknown>): void => {
      lines.push({ level, message, details });
    };
  const logger: Logger = { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
  const rendered = () =>
    lines.map(
      ({ level, message, details }) =>
        `${level} ${message} ${JSON.stringify(details ?? {})} ${inspect(details, { depth: 10 })}`,
    );
  return { lines, logger, rendered };
}

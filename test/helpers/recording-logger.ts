import { inspect } from 'node:util';
import type { Logger } from '../../src/index.js';

/** One line a client logged. */
export interface LoggedLine {
  level: keyof Logger;
  message: string;
  details: Record<string, unknown> | undefined;
}

/**
 * A Logger that keeps every line. `text()` renders them all as a log shipper would (JSON and
 * `inspect`, details in depth), for the checks that a secret is in no line.
 */
export function recordingLogger() {
  const lines: LoggedLine[] = [];
  const at =
    (level: keyof Logger) =>
    (message: string, details?: Record<string, unknown>): void => {
      lines.push({ level, message, details });
    };
  const logger: Logger = { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
  const text = () =>
    lines
      .map(({ level, message, details }) => {
        const rendered = `${JSON.stringify(details ?? {})} ${inspect(details, { depth: 10 })}`;
        return `${level} ${message} ${rendered}`;
      })
      .join('\n');
  return { lines, logger, text };
}

/**
 * Whether `warning` (of `type`) is one of the Node warnings the bin keeps off the terminal, each by
 * its own words (any other goes out as usual): node:sqlite's ExperimentalWarning, and the one saying
 * FORCE_COLOR overrides NO_COLOR, the order the CLI documents and follows (color.ts), no mistake.
 */
export function isQuietWarning(warning: string | Error, type: string | undefined): boolean {
  const message = typeof warning === 'string' ? warning : warning.message;
  if (type === 'ExperimentalWarning') return /sqlite/i.test(message);
  return (
    (type ?? 'Warning') === 'Warning' &&
    message === "The 'NO_COLOR' env is ignored due to the 'FORCE_COLOR' env being set."
  );
}

/** The type `process.emitWarning` gets after a warning: a string, or an options object's `type`. */
const warningType = (option: unknown): string | undefined =>
  typeof option === 'string' ? option : (option as { type?: string } | undefined)?.type;

/**
 * Runs `load` (an import) with the quiet warnings filtered out: Node emits them while it loads a
 * module (node:sqlite; node:util's colours, where FORCE_COLOR is set), so the filter is in place
 * for the load alone.
 */
export async function quietly<T>(load: () => Promise<T>): Promise<T> {
  const emitWarning = process.emitWarning;
  process.emitWarning = function filtered(this: unknown, warning: string | Error, ...rest: unknown[]) {
    if (isQuietWarning(warning, warningType(rest[0]))) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return await load();
  } finally {
    process.emitWarning = emitWarning;
  }
}

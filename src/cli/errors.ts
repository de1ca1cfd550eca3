/**
 * Exit codes and the errors of the `scholarly-metrics` command itself (their report, which knows
 * the SDK's errors, is in report.ts: loaded when there is one to report).
 */
import { terminalSafe } from './output/escape.js';

/**
 * The exit codes of the contract: done, an API, network or database error (the command failed), a
 * usage error, some of many lookups failed (the others written), a rate limit that will not clear soon,
 * Ctrl-C; and a stop asked by SIGTERM (a supervisor's, `docker stop`), 128 + 15 as a shell reports it.
 */
export const exitCodes = {
  ok: 0,
  failed: 1,
  usage: 2,
  partial: 3,
  hungUp: 129,
  interrupted: 130,
  terminated: 143,
  rateLimited: 75,
} as const;

/** A command line that cannot run as given: exits 2 with the message and what is allowed. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A database the command could not read or write (locked, read-only, full): named, with why. Exits 1. */
export class DatabaseError extends Error {
  override readonly name = 'DatabaseError';
}

/**
 * An `--output` file the command could not write once open (a full disk, an I/O error): named, with
 * Node's reason. Exits 1, as a database that cannot be written does.
 */
export class OutputFileError extends Error {
  override readonly name = 'OutputFileError';
}

/**
 * The error of a file `flag` names that the command cannot write: a `UsageError` when it cannot be
 * opened, an `OutputFileError` once a write fails. The name is escaped with Node's words (which quote
 * it too), and Node's error is the cause; one already made here is not named twice.
 */
export function cannotWrite(
  Kind: typeof UsageError | typeof OutputFileError,
  flag: '--output' | '--failed',
  path: string,
  error: unknown,
): Error {
  const cause = error instanceof OutputFileError ? error.cause : error;
  return new Kind(terminalSafe(`cannot write ${flag} ${path}: ${(cause as Error).message}`), { cause });
}

/** A stop that is not a failure of the API: Ctrl-C (SIGINT), or SIGTERM, by its exit code. */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError';

  constructor(
    message: string,
    readonly exitCode: number = exitCodes.interrupted,
  ) {
    super(message);
  }
}

/**
 * The signals that stop a run, each wound down alike (a second one exits at once): the reason it is
 * stopped with, how messages name it, and its exit code. SIGHUP is the terminal closing.
 */
export const stopSignals = [
  { signal: 'SIGINT', reason: 'interrupted', by: 'Ctrl-C', code: exitCodes.interrupted },
  { signal: 'SIGTERM', reason: 'terminated', by: 'SIGTERM', code: exitCodes.terminated },
  { signal: 'SIGHUP', reason: 'hung up', by: 'SIGHUP', code: exitCodes.hungUp },
] as const;

/** How a run `signal` stopped exits: as its reason says (SIGTERM's 143), else as Ctrl-C's 130. */
export function stopExitCode(signal: AbortSignal): number {
  return signal.reason instanceof InterruptedError ? signal.reason.exitCode : exitCodes.interrupted;
}

/**
 * Whether `error` concerns one item of many (a DOI, a journal, a stored query), not the run: the API
 * refused or failed that one request through its retries, so the others are still worth asking for.
 * A rate limit, a refused key, the network or Ctrl-C would fail every other request too.
 */
export function concernsOne(error: unknown): boolean {
  const name = (error as Error | undefined)?.name;
  return (
    name === 'NotFoundError' ||
    name === 'BadRequestError' ||
    name === 'InvalidParameterError' ||
    name === 'InternalServerError' ||
    name === 'ResponseValidationError' ||
    name === 'ResponseTooLargeError'
  );
}

/**
 * Some of the items a command was given (DOIs, ids) failed, and the others were written: exits 3, so
 * a script tells it from a command that failed (1).
 */
export class PartialFailureError extends Error {
  override readonly name: string = 'PartialFailureError';
}

/**
 * The line on stderr for one of many that failed (a DOI, an id, a journal): what it is, as the user
 * gave it, and the error's class and message; nothing in it acts on the terminal.
 */
export function failureLine(what: string, error: Error): string {
  return terminalSafe(`${what}: ${error.name}: ${error.message}`);
}

/**
 * ` (listed above)`, or where else the failures were told, after a partial failure's count; nothing
 * with `--quiet`, which listed none.
 */
export function whereTold(quiet: boolean | undefined, where = 'listed above'): string {
  return quiet ? '' : ` (${where})`;
}

import { QuotaUnavailableError } from '../core/errors.js';
import { escapeUnsafe } from '../core/escape.js';

/** What the acquire script answered, checked. */
export type AcquireReply =
  /** Granted: start in `ms` (a paced start reserved ahead; 0 otherwise). */
  | { readonly code: 0; readonly ms: number }
  /** Wait `ms`, or until a place is given back (-1). */
  | { readonly code: 1; readonly ms: number }
  /** Blocked by a daily-limit 429 for `ms` more. */
  | { readonly code: 2; readonly ms: number };

/**
 * The acquire script's answer, or a `QuotaUnavailableError` for anything it never sends: an unknown
 * code, a wait that is not a whole number within `waitReach` (the longest window or pause) or
 * `blockReach`, another type. Anything speaking RESP can answer, and a wait past a timer's reach would
 * spin.
 */
export function checkAcquireReply(reply: unknown, waitReach: number, blockReach: number): AcquireReply {
  if (Array.isArray(reply) && reply.length === 2) {
    const [code, n] = reply.map(replyInteger);
    if (n !== undefined) {
      if (code === 0 && n >= 0 && n <= waitReach) return { code, ms: n };
      if (code === 1 && n >= -1 && n <= waitReach) return { code, ms: n };
      if (code === 2 && n >= 0 && n <= blockReach) return { code, ms: n };
    }
  }
  throw new QuotaUnavailableError(
    `Redis answered the quota's script with ${describe(reply)}, which it never sends; nothing was sent`,
  );
}

/**
 * A RESP integer as the client hands it over: a number, or its digits (ioredis with `stringNumbers`);
 * `undefined` for anything else.
 */
export function replyInteger(value: unknown): number | undefined {
  if (Number.isSafeInteger(value)) return value as number;
  return typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : undefined;
}

const maxDetailLength = 200;

/** Server text as every message shows it: one line, controls escaped, cut short. */
export function serverText(text: string): string {
  const line = escapeUnsafe(text.replace(/\s+/g, ' ').trim());
  return line.length > maxDetailLength ? `${line.slice(0, maxDetailLength)}…` : line;
}

/** A Redis failure (an error reply, a closed connection) as the quota reports it. */
export function redisFailure(error: unknown, doing = 'nothing was sent'): QuotaUnavailableError {
  if (error instanceof QuotaUnavailableError) return error;
  return new QuotaUnavailableError(`Redis failed (${failureText(error)}); ${doing}`, {
    cause: withoutCommand(error),
  });
}

/** How far down a cause chain a command is looked for; a longer chain is copied, and cut there. */
const maxCauses = 8;

/**
 * Redis's error, less the command a client attaches to it (ioredis's `command: { name, args }`), and
 * so each error down its `cause` chain: a failed AUTH or HELLO carries the password among its
 * arguments, which a logger would then write. Copies of the same class, message and stack; the
 * client's own errors are left as they are. What cannot be read (a revoked proxy) is left out:
 * failing here would leave the call that met it unsettled.
 */
function withoutCommand(error: unknown): unknown {
  try {
    return holdsCommand(error, 0) ? copyWithoutCommand(error as Error, 0) : error;
  } catch {
    return undefined;
  }
}

const causeOf = (error: Error): unknown => Object.getOwnPropertyDescriptor(error, 'cause')?.value;

/** Whether the chain holds a command, as far as it is looked for; one longer may, and is cut. */
function holdsCommand(error: unknown, depth: number): boolean {
  if (!(error instanceof Error)) return false;
  return depth > maxCauses || Object.hasOwn(error, 'command') || holdsCommand(causeOf(error), depth + 1);
}

/** A copy of `error` and its causes without their commands; a cause behind a getter is left out. */
function copyWithoutCommand(error: Error, depth: number): Error {
  const cause = causeOf(error);
  const clean = cause instanceof Error && depth < maxCauses ? copyWithoutCommand(cause, depth + 1) : cause;
  const copy = Object.create(Object.getPrototypeOf(error)) as Error;
  for (const key of Reflect.ownKeys(error)) {
    let descriptor = Object.getOwnPropertyDescriptor(error, key)!;
    if (key === 'command' || (key === 'cause' && (clean === undefined || depth >= maxCauses))) continue;
    if (key === 'cause') descriptor = { ...descriptor, value: clean };
    // The stack as its text: a runtime's own accessor (Node 24's) reads nothing on another object.
    if (key === 'stack') descriptor = { value: error.stack, writable: true, configurable: true };
    Object.defineProperty(copy, key, descriptor);
  }
  return copy;
}

/**
 * The client library's error class and Redis's text: `ErrorReply: TRYAGAIN …`, or the class alone
 * when the text is empty (node-redis's `TimeoutError`).
 */
export function failureText(error: unknown): string {
  try {
    if (!(error instanceof Error)) return `a thrown ${typeof error}: ${serverText(String(error))}`;
    const name =
      error.constructor?.name && error.constructor.name !== 'Error' ? error.constructor.name : error.name;
    const kind = serverText(name || 'Error');
    const text = serverText(error.message);
    return text === '' ? kind : `${kind}: ${text}`;
  } catch {
    // A value that cannot be read as text (no prototype, a throwing toString or getter): failing
    // here would leave the call that met it unsettled.
    return `a thrown ${typeof error} that cannot be shown`;
  }
}

function describe(reply: unknown): string {
  if (Array.isArray(reply))
    return `[${reply.slice(0, 3).map(describe).join(', ')}${reply.length > 3 ? ', …' : ''}]`;
  if (typeof reply === 'string') return `"${serverText(reply).slice(0, 40)}"`;
  if (typeof reply === 'number' || typeof reply === 'bigint') return String(reply);
  return reply === null ? 'null' : typeof reply;
}

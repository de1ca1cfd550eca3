/**
 * The checks of one fault queued with `faults.next()` (in-process, or through the control endpoint),
 * and of the JSON and headers it carries.
 */
import { quote } from '../core/describe-value.js';
import { ConfigurationError } from '../core/errors.js';
import {
  checkBoolean,
  checkInteger,
  checkNames,
  checkObject,
  checkOneOf,
  type OptionNames,
} from '../core/options/checks.js';
import { checkHeaders } from '../core/options/request.js';
import { checkStatus, type Fields, maxSafe } from './options.js';

/**
 * Checks one fault queued with `faults.next()`, every field of it: a value the request would only
 * trip over later (a header name `Headers` refuses, a body JSON cannot hold) or silently ignore (a
 * misspelt `malformed`, `reset: 'true'`) is refused here, naming the field.
 */
export function checkMockFault<Fault>(fault: Fault, maxDelayMs: number, names: OptionNames<Fault>): Fault {
  // A fault is required: `null` or nothing is refused as not an object.
  const given = checkObject<Fields>('fault', fault ?? null) ?? {};
  checkNames('a fault', given, Object.keys(names), 'fault.');
  checkStatus('fault.status', given.status);
  checkInteger('fault.times', given.times, 1, maxSafe);
  checkInteger('fault.delayMs', given.delayMs, 0, maxDelayMs);
  checkBoolean('fault.reset', given.reset);
  if (typeof given.malformed !== 'boolean') {
    checkOneOf('fault.malformed', given.malformed, ['truncated', 'shape']);
  }
  checkFaultHeaders(given.headers);
  checkJsonValue('fault.body', given.body);
  refuseNoEffect(given);
  return fault;
}

/**
 * A fault that would change nothing is refused: the test that queued it would pass believing it saw a
 * failure. `body` and `headers` go out only with `status`.
 */
function refuseNoEffect(fault: Fields): void {
  if (fault.status !== undefined) return;
  for (const field of ['body', 'headers']) {
    if (fault[field] !== undefined)
      throw new ConfigurationError(
        `fault.${field}`,
        `\`fault.${field}\` goes out with \`fault.status\`: give one`,
      );
  }
  if (fault.reset !== true && !fault.malformed && fault.delayMs === undefined)
    throw new ConfigurationError(
      'fault',
      'a fault must do something: give `status`, `reset`, `malformed` or `delayMs`',
    );
}

/**
 * `value` as JSON, or `undefined` for `undefined`. What JSON cannot say is refused: a BigInt or a
 * cycle (which `JSON.stringify` throws on), and a function or a symbol (which it drops without a word).
 */
export function checkJsonValue(option: string, value: unknown): string | undefined {
  try {
    return value === undefined ? undefined : JSON.stringify(value, refuseDropped);
  } catch (error) {
    throw new ConfigurationError(option, `\`${option}\` must be a JSON value: ${String(error)}`);
  }
}

function refuseDropped(_key: string, value: unknown): unknown {
  if (typeof value === 'function' || typeof value === 'symbol') {
    throw new TypeError(`a ${typeof value} is no JSON value`);
  }
  return value;
}

/** Connection-level headers (RFC 9110 §7.6.1): the HTTP server strips them from a request it passes on. */
export const connectionHeaders: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Headers that frame the message or the connection: the HTTP server sets them itself, and a fault's
 * copy would contradict them (`transfer-encoding` beside `content-length` is not HTTP at all).
 */
const framingHeaders: ReadonlySet<string> = new Set([
  ...connectionHeaders,
  'content-length',
  'te',
  'trailer',
]);

/** A fault's headers: string values (as its type says), under names and values `Headers` accepts. */
function checkFaultHeaders(value: unknown): void {
  const option = 'fault.headers';
  const headers = checkObject<Fields>(option, value);
  if (headers !== undefined && Object.values(headers).some((field) => typeof field !== 'string')) {
    throw new ConfigurationError(option, `\`${option}\` values must be strings`);
  }
  const framing = Object.keys(headers ?? {}).find((name) => framingHeaders.has(name.trim().toLowerCase()));
  if (framing !== undefined) {
    throw new ConfigurationError(
      option,
      `\`${option}\` cannot set ${quote(framing)}: the server frames the answer itself`,
    );
  }
  checkHeaders(headers as Record<string, string> | undefined, option);
}

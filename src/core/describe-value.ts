import { cut, escapeUnsafe } from './escape.js';

/**
 * Safe, short renderings of untrusted values for error messages: what a parameter, a response or a
 * webhook body held. Such values end up in logs (and, for webhooks, in 400 answers), so strings are
 * truncated and every character that could confuse a terminal or a log viewer is escaped.
 */

/** Longest piece of an untrusted string quoted in a message, in UTF-16 code units. */
const maxQuotedLength = 40;

/**
 * Quotes an untrusted string: JSON escaping plus {@link escapeUnsafe}; a long one is {@link cut} and its
 * full length noted.
 */
export function quote(text: string): string {
  const head = cut(text, maxQuotedLength);
  // JSON escaping takes care of the C0 controls; escapeUnsafe of what it leaves.
  const quoted = escapeUnsafe(JSON.stringify(head));
  return head === text ? quoted : `${quoted} (${text.length} characters)`;
}

/**
 * Says what a received value was: `string "7"`, `1.5`, `-0`, `true`, `null`, `nothing` (undefined),
 * `an array`, `an object`, `bigint`, `a symbol`, `a function`.
 *
 * Never calls into the value (no `toString`, no getters, no proxy trap that could throw).
 */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return `string ${quote(value)}`;
    case 'number':
    case 'boolean':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'undefined':
      return 'nothing';
    case 'bigint':
      return 'bigint';
    case 'symbol':
    case 'function':
      return `a ${typeof value}`;
    default:
      return value === null ? 'null' : isArray(value) ? 'an array' : 'an object';
  }
}

/** `Array.isArray` throws on a revoked Proxy; here it only decides a word in a message. */
function isArray(value: unknown): boolean {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * Safe, short renderings of untrusted values for error messages: what a parameter, a response or a
 * webhook body held. Such values end up in logs (and, for webhooks, in 400 answers), so strings are
 * truncated and every character that could confuse a terminal or a log viewer is escaped.
 */

/** Longest piece of an untrusted string quoted in a message, in UTF-16 code units. */
const maxQuotedLength = 40;

/**
 * Characters JSON.stringify leaves as they are but a log viewer may act on: C1 controls, line and
 * paragraph separators, bidirectional overrides (which can make text display reversed), BOM.
 */
const unsafeCharacters = /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;
/** The above and the C0 controls (ANSI escape sequences start with one), for text not JSON-quoted. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const unsafeInText = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

const escapeCharacter = (character: string) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Untrusted text (what a server said) made safe to print as part of a message: controls, bidirectional
 * overrides and the other characters above written as `\uXXXX` escapes, everything else as is.
 *
 * @example
 * ```ts
 * escapeUnsafe('\u001b[31mred\u202e'); // '\\u001b[31mred\\u202e'
 * ```
 */
export function escapeUnsafe(text: string): string {
  return text.replace(unsafeInText, escapeCharacter);
}

/**
 * Quotes an untrusted string: JSON escaping plus the escapes above; a long one is cut (never inside a
 * surrogate pair) and its full length noted.
 *
 * @example
 * ```ts
 * quote('journal_deleted'); // '"journal_deleted"'
 * quote('x'.repeat(100)); // '"xxxx…" (100 characters)', 40 x
 * ```
 */
export function quote(text: string): string {
  let head = text;
  if (text.length > maxQuotedLength) {
    const last = text.charCodeAt(maxQuotedLength - 1);
    head = `${text.slice(0, last >= 0xd800 && last <= 0xdbff ? maxQuotedLength - 1 : maxQuotedLength)}…`;
  }
  const quoted = JSON.stringify(head).replace(unsafeCharacters, escapeCharacter);
  return head === text ? quoted : `${quoted} (${text.length} characters)`;
}

/**
 * Says what a received value was: `string "7"`, `1.5`, `-0`, `true`, `null`, `nothing` (undefined),
 * `an array`, `an object`, `bigint`, `a symbol`, `a function`.
 *
 * Never calls into the value (no `toString`, no getters, no proxy trap that could throw).
 *
 * @example
 * ```ts
 * `expected an integer, got ${describeValue('7')}`; // 'expected an integer, got string "7"'
 * ```
 */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return `string ${quote(value)}`;
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'boolean':
      return String(value);
    case 'undefined':
      return 'nothing';
    case 'bigint':
      return 'bigint';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
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

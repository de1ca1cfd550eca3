/**
 * Safe, short renderings of untrusted values for error messages.
 *
 * Webhook bodies come from the network and their messages end up in logs and in 400 answers, so
 * values are truncated and every character that could confuse a terminal or a log viewer is escaped.
 */

/** Longest piece of an untrusted string quoted in a message, in UTF-16 code units. */
const maxQuotedLength = 60;

/**
 * Control characters JSON.stringify leaves as they are but a log viewer may act on: C1 controls,
 * line/paragraph separators and bidirectional overrides (which can make text display reversed).
 */
const unsafeCharacters = /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/**
 * Quotes an untrusted string: JSON escaping, the extra escapes above, and truncation with a note of
 * the full length.
 *
 * @example
 * ```ts
 * quote('journal_deleted'); // '"journal_deleted"'
 * quote('x'.repeat(1000)); // '"xxx…x"… (1000 characters)'
 * ```
 */
export function quote(text: string): string {
  let head = text;
  if (text.length > maxQuotedLength) {
    let end = maxQuotedLength;
    // Do not cut a surrogate pair in half.
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end -= 1;
    head = text.slice(0, end);
  }
  const quoted = JSON.stringify(head).replace(
    unsafeCharacters,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return head === text ? quoted : `${quoted}… (${text.length} characters)`;
}

/**
 * Names the type of an untrusted value and, for primitives, the value itself.
 *
 * Never calls into the value (no `toString`, no getters), so it cannot throw on hostile objects.
 *
 * @example
 * ```ts
 * describeValue('7'); // 'string "7"'
 * describeValue(1.5); // 'number 1.5'
 * describeValue([1]); // 'an array'
 * ```
 */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return `string ${quote(value)}`;
    case 'number':
      return `number ${Object.is(value, -0) ? '-0' : String(value)}`;
    case 'bigint': {
      const digits = String(value);
      return `bigint ${digits.length > maxQuotedLength ? `${digits.slice(0, maxQuotedLength)}…` : digits}n`;
    }
    case 'boolean':
      return `boolean ${String(value)}`;
    case 'undefined':
      return 'nothing';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
    default:
      if (value === null) return 'null';
      return isArray(value) ? 'an array' : 'an object';
  }
}

/** `Array.isArray` throws on a revoked Proxy; here that only decides a word in a message. */
function isArray(value: unknown): boolean {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

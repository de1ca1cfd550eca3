/**
 * Characters a terminal or a log viewer may act on: C0 and C1 controls (ANSI escape sequences start
 * with one), line and paragraph separators, bidirectional overrides (which can make text display
 * reversed), BOM.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const unsafeCharacters = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/**
 * Untrusted text (what a server or a webhook sender said) made safe to print as part of a message:
 * the characters above written as `\uXXXX` escapes (`\u001b[31m` becomes `\\u001b[31m`), everything
 * else as is.
 */
export function escapeUnsafe(text: string): string {
  return text.replace(
    unsafeCharacters,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Characters a terminal or a log viewer may act on rather than print: C0 and C1 controls (ANSI
 * escape sequences start with one), DEL, the line and paragraph separators, the bidi marks,
 * embeddings, overrides and isolates (which can make `10.1000/evil` read as something else), and the
 * BOM. Untrusted text is shown with these escaped, by one of two renderers: {@link escapeUnsafe} for
 * messages, the command line's `terminalSafe` for terminal cells.
 *
 * Global, for `String.prototype.replace` (which starts from the beginning whatever `lastIndex` says);
 * {@link hasUnsafe} tests for one.
 */
export const unsafeCharacters =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/** Whether `text` holds one of the {@link unsafeCharacters}. */
export function hasUnsafe(text: string): boolean {
  unsafeCharacters.lastIndex = 0;
  const found = unsafeCharacters.test(text);
  unsafeCharacters.lastIndex = 0;
  return found;
}

/**
 * Untrusted text (what a server or a webhook sender said) made safe to print as part of a message:
 * the {@link unsafeCharacters} written as `\uXXXX` escapes (`\u001b[31m` becomes `\\u001b[31m`),
 * everything else as is.
 */
export function escapeUnsafe(text: string): string {
  return text.replace(
    unsafeCharacters,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `text` cut to `max` UTF-16 units and `…`, never inside a surrogate pair; `text` itself when short enough. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return `${text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max)}…`;
}

/**
 * Text from the API (or from a user's file) made safe to show on a terminal: every character a
 * terminal would act on rather than print is shown as an escape. A title holding ESC could clear the
 * screen, set the window title, write the clipboard (OSC 52) or hide a link (OSC 8); a bidi override
 * could make `10.1000/evil` read as something else. The escaped form is plain ASCII, so it can be cut
 * anywhere without leaving a sequence open, and its width is its length.
 */

/**
 * C0 controls, DEL, C1 controls (8-bit CSI and OSC among them), the bidi marks, embeddings,
 * overrides and isolates, and the line and paragraph separators.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const active = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

/** One active character as it is shown: `\n`, `\t`, `\r`, `\e` (ESC), else `\xHH` or `\u{HHHH}`. */
function shown(char: string): string {
  const name = named[char];
  if (name !== undefined) return name;
  const code = char.codePointAt(0) ?? 0;
  return code <= 0xff
    ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`
    : `\\u{${code.toString(16).toUpperCase()}}`;
}

/** `text` with every character a terminal would act on shown escaped. */
export function terminalSafe(text: string): string {
  return text.replace(active, shown);
}

/**
 * A document for a terminal (json, csv, … written to one): escaped as `terminalSafe` does, but its
 * line breaks (`\n`, and `\r\n`) and tabs kept, which separate records and fields and act on nothing.
 */
export function terminalDocument(text: string): string {
  return text.replace(active, (char, at: number) =>
    char === '\n' || char === '\t' || (char === '\r' && text[at + 1] === '\n') ? char : shown(char),
  );
}

/** Whether `text` holds a character `terminalSafe` would escape. */
export function hasActive(text: string): boolean {
  active.lastIndex = 0;
  const found = active.test(text);
  active.lastIndex = 0;
  return found;
}

/** The escapes `terminalSafe` writes, each one indivisible when a cell is cut. */
export const escapeUnit = /\\(?:[ntre]|x[0-9A-F]{2}|u\{[0-9A-F]+\})/y;

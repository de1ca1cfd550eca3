/**
 * Text from the API (or from a user's file) made safe to show on a terminal: every character a
 * terminal would act on rather than print (core's one class of them) is shown as an escape. A title
 * holding ESC could clear the screen, set the window title, write the clipboard (OSC 52) or hide a
 * link (OSC 8). The escaped form is plain ASCII, so it can be cut anywhere without leaving a sequence
 * open, and its width is its length.
 */
import { unsafeCharacters } from '../../core/escape.js';

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

/** `text` with every character a terminal would act on shown escaped: the terminal-cell renderer. */
export function terminalSafe(text: string): string {
  return text.replace(unsafeCharacters, shown);
}

/**
 * Text from the API in a table cell or a record view: as `terminalSafe` shows it, with the text's own
 * backslashes written `\\`, so that an escape there always stands for a character the text held (`\e`
 * is ESC, never a backslash and an `e`), as tsv writes them.
 */
export function terminalCell(text: string): string {
  return terminalSafe(text.replaceAll('\\', '\\\\'));
}

/** A warning on stderr: `warning: <text>`, the text escaped as `terminalSafe` does, and a line end. */
export function warningLine(text: string): string {
  return `warning: ${terminalSafe(text)}\n`;
}

/**
 * A document for a terminal (json, csv, … written to one): escaped as `terminalSafe` does, but its
 * line breaks (`\n`, and `\r\n`) and tabs kept, which separate records and fields and act on nothing.
 */
export function terminalDocument(text: string): string {
  return text.replace(unsafeCharacters, (char, at: number) =>
    char === '\n' || char === '\t' || (char === '\r' && text[at + 1] === '\n') ? char : shown(char),
  );
}

/** The escapes `terminalSafe` writes, each one indivisible when a cell is cut. */
export const escapeUnit = /\\(?:[ntre\\]|x[0-9A-F]{2}|u\{[0-9A-F]+\})/y;

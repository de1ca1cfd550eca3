/**
 * Widths as a terminal shows them: CJK and emoji take two columns, combining marks none
 * (`string-width`, which follows Unicode's East Asian Width and emoji data). Text is cut by whole
 * characters as the eye sees them (grapheme clusters), and an escape of `terminalSafe` is never split.
 */
import stringWidth from 'string-width';
import { escapeUnit } from './escape.js';

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** The columns `text` takes on a terminal; `text` holds no active character (see `terminalSafe`). */
export function displayWidth(text: string): number {
  // ASCII is the common case by far, and its width is its length.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test is for printable ASCII
  return /^[\x20-\x7e]*$/.test(text) ? text.length : stringWidth(text);
}

/** The pieces a cut may fall between: escapes whole, then grapheme clusters. */
function* units(text: string): Generator<string> {
  let at = 0;
  for (const { segment, index } of segmenter.segment(text)) {
    if (index < at) continue;
    escapeUnit.lastIndex = index;
    const escaped = segment === '\\' ? escapeUnit.exec(text) : null;
    if (escaped) {
      at = index + escaped[0].length;
      yield escaped[0];
    } else {
      at = index + segment.length;
      yield segment;
    }
  }
}

/** `text` cut to `width` columns, ending with `…` when cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const unit of units(text)) {
    const w = displayWidth(unit);
    if (used + w > width - 1) break;
    out += unit;
    used += w;
  }
  return `${out}…`;
}

/** `text` padded with spaces to `width` columns, on the right, or on the left with `right`. */
export function pad(text: string, width: number, right = false): string {
  const fill = width - displayWidth(text);
  if (fill <= 0) return text;
  return right ? ' '.repeat(fill) + text : text + ' '.repeat(fill);
}

/**
 * Widths as a terminal shows them: CJK and emoji take two columns, combining marks none
 * (`string-width`, which follows Unicode's East Asian Width and emoji data). Text is cut by whole
 * characters as the eye sees them (grapheme clusters), and an escape of `terminalSafe` is never split.
 */
import stringWidth from 'string-width';
import { escapeUnit } from './escape.js';

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Text whose every character takes one column and stands alone (printable ASCII, Latin, Greek,
 * Cyrillic, the common punctuation; no combining mark, no wide or emoji character): its width is its
 * length, without the grapheme analysis a table of a thousand rows would otherwise spend most of its
 * time in.
 */
const narrow =
  /^[\x20-\x7e\xa0-\xac\xae-\u02ff\u0370-\u0377\u037a-\u037f\u0384-\u0482\u048a-\u052f\u2010-\u2027\u2030-\u205e\u20a0-\u20c0]*$/;

/** Soft hyphens (U+00AD): string-width counts them as nothing, terminals draw each a column wide. */
const softHyphens = /\xad/g;

/** The columns `text` takes on a terminal; `text` holds no active character (see `terminalSafe`). */
export function displayWidth(text: string): number {
  if (narrow.test(text)) return text.length;
  return stringWidth(text) + (text.match(softHyphens)?.length ?? 0);
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
  if (narrow.test(text)) {
    let cut = text.slice(0, width - 1);
    // An escape the cut would split goes whole to the other side.
    const backslash = cut.lastIndexOf('\\');
    if (backslash !== -1) {
      escapeUnit.lastIndex = backslash;
      const escaped = escapeUnit.exec(text);
      if (escaped && backslash + escaped[0].length > cut.length) cut = cut.slice(0, backslash);
    }
    return `${cut}…`;
  }
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

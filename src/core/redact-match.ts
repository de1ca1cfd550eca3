/**
 * Finds the forms of a secret in a text, each character written any of its ways, without one
 * regular expression as long as the secret: such an expression costs the engine time and memory
 * that grow faster than its length (a key of a few thousand characters would make it throw, or run
 * the process out of memory). A form is matched in short pieces instead, each a small sticky expression
 * that looks ahead at the first characters of the next piece, so that the way it picks for an
 * ambiguous escape (`%25` as `%`, a run of backslashes) leaves the rest matchable.
 */

/** Characters per piece after a form's start. */
const pieceLength = 16;
/** Characters of the next piece a piece looks ahead at. */
const lookahead = 4;

/** One piece of a form: all of it, followed by the next piece's start; else as much of it as is there. */
interface Piece {
  readonly whole: RegExp;
  readonly begun: RegExp;
}

/** A finder of the first mention at or after a position: its start and end. */
export type Mentions = (text: string, from: number) => { start: number; end: number } | undefined;

/**
 * The finder for `forms`, in order of preference; `way` turns a character into an expression for
 * every way it may be written. A form is found whole; else, when longer than `minimumPrefix`
 * characters, from a start of at least that many, as far as it goes.
 */
export function mentionsOf(
  forms: readonly string[],
  way: (character: string) => string,
  minimumPrefix: number,
): Mentions {
  const pieces = forms.map((form) => piecesOf([...form].map(way), minimumPrefix));
  const starts = new RegExp(
    forms.map((form) => [...form.slice(0, minimumPrefix)].map(way).join('')).join('|'),
    'gi',
  );
  return (text, from) => {
    starts.lastIndex = from;
    for (let hit = starts.exec(text); hit !== null; hit = starts.exec(text)) {
      let begun: number | undefined;
      for (const form of pieces) {
        const end = matchForm(form, text, hit.index);
        if (end > 0) return { start: hit.index, end };
        // Of the forms only begun here, the one that goes furthest: two keys may share a long start.
        if (end < 0) begun = Math.max(begun ?? 0, -end);
      }
      if (begun !== undefined) return { start: hit.index, end: begun };
      starts.lastIndex = hit.index + 1;
    }
    return undefined;
  };
}

/** `ways` (one expression per character) cut into {@link Piece}s, the first `minimumPrefix` long. */
function piecesOf(ways: readonly string[], minimumPrefix: number): Piece[] {
  const pieces: Piece[] = [];
  for (let from = 0, to = minimumPrefix; from < ways.length; from = to, to += pieceLength) {
    const own = ways.slice(from, to).join('');
    const next = ways.slice(to, to + lookahead);
    const rest = ways.slice(from === 0 ? to : from, to + lookahead);
    // The start must be there whole; past it, each character is optional from the first one missing.
    const optional = rest.reduceRight((tail, character) => `(?:${character}${tail})?`, '');
    pieces.push({
      whole: new RegExp(next.length === 0 ? own : `${own}(?=${next.join('')})`, 'yi'),
      begun: new RegExp(from === 0 ? own + optional : optional, 'yi'),
    });
  }
  return pieces;
}

/** The end of the form at `at` when whole; minus the end when only a start is there; 0 when none. */
function matchForm(pieces: readonly Piece[], text: string, at: number): number {
  let end = at;
  for (const { whole, begun } of pieces) {
    whole.lastIndex = end;
    const match = whole.exec(text);
    if (match !== null) {
      end += match[0].length;
      continue;
    }
    begun.lastIndex = end;
    const start = begun.exec(text);
    return end === at && start === null ? 0 : -(end + (start?.[0].length ?? 0));
  }
  return end;
}

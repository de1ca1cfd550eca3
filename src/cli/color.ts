/**
 * Colour on a terminal only: headers bold, errors red, hints dim. `--color always|never` decides;
 * otherwise (`auto`) `NO_COLOR` turns it off and `FORCE_COLOR` on (https://no-color.org,
 * https://force-color.org), and else a terminal that shows colours gets them.
 */

export const colorChoices = ['auto', 'always', 'never'] as const;
export type ColorChoice = (typeof colorChoices)[number];

/** What decides whether a stream gets colour. */
export interface ColorFacts {
  choice?: ColorChoice | undefined;
  env: Readonly<Record<string, string | undefined>>;
  /** The stream is a terminal that shows colours. */
  terminal: boolean;
}

export function useColor({ choice = 'auto', env, terminal }: ColorFacts): boolean {
  if (choice !== 'auto') return choice === 'always';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return terminal;
}

export interface Palette {
  header(text: string): string;
  error(text: string): string;
  hint(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

/** The styles of one stream: ANSI SGR codes with colour, the text unchanged without. */
export function palette(color: boolean): Palette {
  return color
    ? { header: sgr(1, 22), error: sgr(31, 39), hint: sgr(2, 22) }
    : { header: plain, error: plain, hint: plain };
}

/** An error report's lines styled: `error:` red, a `hint:` line dim, the rest (a stack) as it is. */
export function paintReport(text: string, paint: Palette): string {
  return text
    .split('\n')
    .map((line) => {
      if (line.startsWith('error:')) return paint.error('error:') + line.slice('error:'.length);
      if (line.startsWith('hint:')) return paint.hint(line);
      return line;
    })
    .join('\n');
}

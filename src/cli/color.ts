/**
 * Colour: headers bold, errors red, hints dim. `--color always|never` decides; otherwise (`auto`)
 * `FORCE_COLOR` set and not empty turns it on, a pipe included, and wins over `NO_COLOR`, as
 * https://force-color.org's implementation orders them; `0` and `false` turn it off, as Node's own
 * tools read them. Then `NO_COLOR` set and not empty turns it off (https://no-color.org), and else a
 * terminal that shows colours gets them.
 */
import { WriteStream } from 'node:tty';

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
  const force = forcedColor(env.FORCE_COLOR);
  if (force !== undefined) return force;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return terminal;
}

/** What `FORCE_COLOR` says: on (any value but these), off (`0`, `false`), or nothing (unset or empty). */
function forcedColor(value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  return value !== '0' && value.toLowerCase() !== 'false';
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

/**
 * An error report as stderr shows it: painted when `--color` (`choice`), the environment and the
 * terminal say so. The command's own errors and commander's usage errors both go through here.
 */
export function paintReportFor(
  report: string,
  choice: ColorChoice | undefined,
  io: { env: ColorFacts['env']; stderr: { isTTY?: boolean } },
): string {
  const terminal = io.stderr.isTTY === true && showsColors(io.env);
  return paintReport(report, palette(useColor({ choice, env: io.env, terminal })));
}

/**
 * Whether a terminal shows colours, for stdout (`IO.colors`) and stderr alike: Node's `hasColors()`,
 * which a `TERM=dumb` fails. It reads nothing but the environment it is given, so it is asked with the
 * run's own and no `tty.WriteStream`: the run's stderr is a wrapper that masks secrets, a test's one
 * in memory.
 */
export function showsColors(env: ColorFacts['env']): boolean {
  return WriteStream.prototype.hasColors(env);
}

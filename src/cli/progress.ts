/**
 * One line of progress on stderr, redrawn in place: items done of the total, requests sent, the rate
 * and the time left. Only on a terminal and without `--quiet`; a pipe or a log file never sees it.
 */
import type { OutputStream } from './io.js';

/** How often the line is redrawn at most: more often only costs the walk time. */
const redrawMs = 100;

export interface ProgressCounts {
  done: number;
  total: number | undefined;
  requests: number;
}

export class Progress {
  readonly #stream: OutputStream | undefined;
  readonly #unit: string;
  readonly #now: () => number;
  readonly #started: number;
  #drawnAt = 0;
  #shown = false;

  /** `stream` undefined: a progress that draws nothing. */
  constructor(stream: OutputStream | undefined, unit: string, now: () => number = Date.now) {
    this.#stream = stream;
    this.#unit = unit;
    this.#now = now;
    this.#started = now();
  }

  /** Whether progress goes to `stream`: a terminal, and not `--quiet`. */
  static for(stream: OutputStream, quiet: boolean, unit: string, now: () => number = Date.now): Progress {
    return new Progress(stream.isTTY && !quiet ? stream : undefined, unit, now);
  }

  update(counts: ProgressCounts, force = false): void {
    const stream = this.#stream;
    if (stream === undefined) return;
    const now = this.#now();
    if (!force && now - this.#drawnAt < redrawMs) return;
    this.#drawnAt = now;
    const line = describe(counts, this.#unit, (now - this.#started) / 1000);
    const width = stream.columns ?? 80;
    stream.write(`\r\x1b[2K${line.length >= width ? line.slice(0, width - 1) : line}`);
    this.#shown = true;
  }

  /** Erases the line, so what follows starts on a clean one. */
  clear(): void {
    if (this.#stream === undefined || !this.#shown) return;
    this.#stream.write('\r\x1b[2K');
    this.#shown = false;
  }
}

/** The progress line, e.g. `1,200 of 30,000 papers · 13 requests · 640/s · 45 s left`. */
export function describe(counts: ProgressCounts, unit: string, seconds: number): string {
  const { done, total, requests } = counts;
  const parts = [
    `${done.toLocaleString('en')}${total === undefined ? '' : ` of ${total.toLocaleString('en')}`} ${unit}`,
  ];
  parts.push(`${requests.toLocaleString('en')} request${requests === 1 ? '' : 's'}`);
  const rate = seconds > 0 ? done / seconds : 0;
  if (rate > 0) parts.push(`${Math.round(rate).toLocaleString('en')}/s`);
  if (rate > 0 && total !== undefined && total > done) parts.push(`${clock((total - done) / rate)} left`);
  return parts.join(' · ');
}

function clock(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.ceil(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.ceil((seconds % 3600) / 60)} min`;
}

import { describe, expect, it, vi } from 'vitest';
import { grouped } from '../../src/cli/counts.js';
import { clock, describe as line, Progress } from '../../src/cli/progress.js';
import { countSdkTimers, useFakeClock } from '../helpers/fake-clock.js';

/** A terminal of `columns` (0: one that reports no size) and what was written to it. */
function terminal(columns = 100) {
  let written = '';
  const stream = {
    isTTY: true,
    columns,
    write: (text: string) => {
      written += text;
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  return { stream, written: () => written };
}

/** A progress line for papers on a fake clock (`clock.ms`; intervals faked too), and the SDK's timers. */
function lineOnFakeClock() {
  useFakeClock({ date: false, intervals: true });
  const timers = countSdkTimers();
  const clock = { ms: 0 };
  const { stream, written } = terminal();
  const progress = Progress.for(stream, false, () => clock.ms);
  progress.begin('papers');
  return { progress, written, timers, clock };
}

describe('the progress line', () => {
  it('says items of total, requests, rate and time left', () => {
    expect(line({ done: 1200, total: 30000, requests: 13 }, 'papers', 2)).toBe(
      '1,200 of 30,000 papers · 13 requests · 600/s · 48 s left',
    );
    expect(line({ done: 0, total: undefined, requests: 1 }, 'DOIs', 0)).toBe('0 DOIs · 1 request');
  });

  it("after a resume, the rate and the time left count this run's items only", () => {
    // 42,800 were written by the run before; this one wrote 10 in its first second.
    expect(line({ done: 42_810, total: 43_000, requests: 2 }, 'papers', 1, 42_800)).toBe(
      '42,810 of 43,000 papers · 2 requests · 10/s · 19 s left',
    );
  });

  it('says a duration rounded up as a whole: never 60 s in a minute, nor 60 min in an hour', () => {
    const said = [9.94, 58.2, 59.6, 60, 119.4, 125, 3599.5, 3600, 7170, 7201];
    expect(said.map(clock)).toEqual([
      '9.9 s',
      '59 s',
      '1 min 0 s',
      '1 min 0 s',
      '2 min 0 s',
      '2 min 5 s',
      '1 h 0 min',
      '1 h 0 min',
      '2 h 0 min',
      '2 h 1 min',
    ]);
  });

  it("groups thousands as toLocaleString('en') does, without calling it for a count", () => {
    const counts = [
      0,
      7,
      999,
      1000,
      12_345,
      1_234_567,
      -1234,
      -0,
      Number.MAX_SAFE_INTEGER,
      2 ** 60,
      0.5,
      1234.5678,
    ];
    for (let digits = 1; digits <= 16; digits++) counts.push(10 ** digits - 1, 10 ** digits, -(10 ** digits));
    for (const count of counts) expect(grouped(count), String(count)).toBe(count.toLocaleString('en'));
  });

  it('draws nothing off a terminal or with --quiet', () => {
    let written = '';
    const stream = {
      isTTY: false,
      write: (text: string) => (written += text),
    } as unknown as NodeJS.WriteStream;
    Progress.for(stream, false).update({ done: 1, total: 2, requests: 1 }, true);
    const terminal = { ...stream, isTTY: true, columns: 80 } as unknown as NodeJS.WriteStream;
    Progress.for(terminal, true).update({ done: 1, total: 2, requests: 1 }, true);
    expect(written).toBe('');
    const shown = Progress.for(terminal, false);
    shown.begin('papers');
    shown.update({ done: 1, total: 2, requests: 1 }, true);
    shown.clear();
    const erase = '\r\u001b[2K';
    expect(written.startsWith(`${erase}1 of 2 papers · 1 request`)).toBe(true);
    expect(written.endsWith(erase)).toBe(true);
  });

  it('draws the counts an update brought within the redraw interval once it ends, and none after clear()', () => {
    const { progress: shown, written, timers, clock } = lineOnFakeClock();
    shown.update({ done: 20, total: 100, requests: 1 }, true);
    clock.ms += 10;
    // A burst of pages, then a long wait for the quota: no update comes after the last.
    shown.update({ done: 40, total: 100, requests: 2 });
    shown.update({ done: 60, total: 100, requests: 3 });
    expect(written()).not.toContain('60 of 100');
    clock.ms += 90;
    vi.advanceTimersByTime(90);
    expect(written().split('\r\u001b[2K').at(-1)).toMatch(/^60 of 100 papers · 3 requests/);
    clock.ms += 10;
    shown.update({ done: 80, total: 100, requests: 4 });
    shown.clear();
    vi.advanceTimersByTime(1000);
    expect(written().endsWith('\r\u001b[2K')).toBe(true);
    expect(timers()).toBe(0);
  });

  it('a clock set back holds no line: drawn at once, the rate counted from there', () => {
    const { progress: shown, written, clock } = lineOnFakeClock();
    clock.ms = 3_600_000;
    shown.begin('papers');
    shown.update({ done: 100, total: 1000, requests: 1 }, true);
    clock.ms -= 3_600_000 - 10; // an hour back, then on
    shown.update({ done: 200, total: 1000, requests: 2 });
    expect(written().split('\r\u001b[2K').at(-1)).toMatch(/^200 of 1,000 papers · 2 requests$/);
    clock.ms += 1000;
    shown.update({ done: 300, total: 1000, requests: 3 });
    expect(written().split('\r\u001b[2K').at(-1)).toBe(
      '300 of 1,000 papers · 3 requests · 100/s · 7.0 s left',
    );
  });

  it('says a rate below one a second with two figures, not 0/s', () => {
    expect(line({ done: 3, total: 100, requests: 3 }, 'DOIs', 10)).toBe(
      '3 of 100 DOIs · 3 requests · 0.3/s · 5 min 24 s left',
    );
    expect(line({ done: 1, total: undefined, requests: 1 }, 'DOIs', 80)).toBe('1 DOI · 1 request · 0.013/s');
    expect(clock(9.96)).toBe('10 s');
  });

  it('is drawn whole on a terminal that reports no width (0 columns)', () => {
    const { stream, written } = terminal(0);
    const shown = Progress.for(stream, false, () => 0);
    shown.begin('papers');
    shown.update({ done: 1, total: 2, requests: 1 }, true);
    expect(written()).toBe('\r\u001b[2K1 of 2 papers · 1 request');
  });
});

describe('a rate-limit wait on the progress line', () => {
  it('says rate-limited: waiting N s, counting down each second, then leaves the line', () => {
    const { progress, written, timers, clock } = lineOnFakeClock();
    progress.update({ done: 100, total: 500, requests: 2 }, true);
    progress.rateLimited(58);
    expect(written()).toMatch(/100 of 500 papers · 2 requests · rate-limited: waiting 58 s$/);
    clock.ms += 1000;
    vi.advanceTimersByTime(1000);
    expect(written()).toMatch(/rate-limited: waiting 57 s$/);
    for (let second = 0; second < 57; second++) {
      clock.ms += 1000;
      vi.advanceTimersByTime(1000);
    }
    const lines = written().split('\r\u001b[2K');
    expect(lines.at(-2)).toMatch(/rate-limited: waiting 1 s$/);
    expect(lines.at(-1)).toMatch(/^100 of 500 papers · 2 requests/);
    expect(lines.at(-1)).not.toContain('rate-limited');
    expect(written().endsWith('waiting 0 s')).toBe(false);
    expect(timers()).toBe(0);
  });

  it('tells its listeners at once, drawn or not; clear() ends the countdown', () => {
    useFakeClock({ date: false, intervals: true });
    const timers = countSdkTimers();
    const quiet = Progress.for(terminal().stream, true);
    const heard = vi.fn();
    const unlisten = quiet.onPause(heard);
    quiet.rateLimited(5);
    expect(heard).toHaveBeenCalledTimes(1);
    unlisten();
    quiet.rateLimited(5);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(timers()).toBe(0);
    const drawn = Progress.for(terminal().stream, false);
    drawn.rateLimited(30);
    expect(timers()).toBe(1);
    drawn.clear();
    expect(timers()).toBe(0);
  });
});

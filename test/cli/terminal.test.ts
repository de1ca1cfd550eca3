/**
 * The bin on a real terminal: Debian's tmux runs it in a detached session of a known size, and the
 * test reads the screen with `capture-pane`. Tables fit the width, `journals score` draws its chart,
 * and the progress line shows while a walk runs and is gone when it ends.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support.js';
import { scratch } from './resume.js';
import { skipWithoutTmux, tmuxRun } from './tmux.js';

const skip = skipWithoutTmux('test/cli/terminal.test.ts');

const mock = useMockServer({ sizes: { journals: 10, papers: 600, authors: 20 } });
const slow = useMockServer({ sizes: { journals: 10, papers: 600, authors: 20 }, faults: { latencyMs: 40 } });

/** Runs the bin in a fresh tmux session of `width` × 40. */
const terminal = (args: string[], url: string, width = 120) => tmuxRun(args, { url, width, height: 40 });

describe.skipIf(skip)('on a terminal (tmux)', { timeout: 60_000 }, () => {
  it('writes a table whose lines fit the width, long cells cut with …', async () => {
    const { until } = terminal(['papers', 'search', '--per-page', '20'], mock.server.url, 100);
    const screen = await until(/exit-\d+/);
    expect(screen).toContain('exit-0');
    const lines = screen.split('\n').filter((line) => line.trim() !== '');
    expect(lines[0]).toMatch(/^ *ID +.*TITLE/);
    expect(lines.slice(1, 21).every((line) => line.length <= 100)).toBe(true);
    expect(screen).toContain('…');
    // The hint that more pages exist goes to stderr, on the terminal.
    expect(screen).toMatch(/20 of \d+ papers: --limit <n> or --all for more/);
  });

  it('draws the score history as a chart, then the table; --format gives the data alone', async () => {
    const { history } = await mock.client().journals.score(4);
    const chart = await terminal(['journals', 'score', '4'], mock.server.url).until(/exit-\d+/);
    expect(chart).toMatch(/┤/);
    expect(chart).toMatch(/[╭╮╰╯─]/);
    expect(chart.indexOf('┤')).toBeLessThan(chart.indexOf('DATE'));
    // Dates under the chart, oldest first: the first and the last at least.
    const dates = chart.split('\n').find((line) => line.includes(history[0]!.date)) ?? '';
    expect(dates.indexOf(history.at(-1)!.date)).toBeGreaterThanOrEqual(0);
    expect(dates.indexOf(history.at(-1)!.date)).toBeLessThan(dates.indexOf(history[0]!.date));
    const data = await terminal(['journals', 'score', '4', '--format', 'json'], mock.server.url).until(
      /exit-\d+/,
    );
    expect(data).not.toMatch(/┤/);
    expect(data).toContain('"history": [');
  });

  it('shows progress on stderr while a walk runs, and clears it at the end', async () => {
    const file = join(scratch(), 'out.jsonl');
    const args = ['papers', 'search', '--per-page', '5', '--all', '--prefetch', '0', '--output', file];
    const { until } = terminal(args, slow.server.url);
    const running = await until(/of 600 papers · \d+ requests?/);
    expect(running).toMatch(/\d+ of 600 papers · \d+ requests? · \d+\/s · .+ left/);
    const done = await until(/exit-\d+/);
    expect(done).toContain('exit-0');
    // The progress line is gone; the last word stays.
    expect(done).not.toMatch(/of 600 papers ·/);
    expect(done).toMatch(/^wrote 600 of 600 papers to \S+out\.jsonl \(120 requests, [\d.]+ (s|min)/m);
  });

  it('--quiet: no progress', async () => {
    const file = join(scratch(), 'out.jsonl');
    const args = ['--quiet', 'papers', 'search', '--per-page', '50', '--all', '--output', file];
    const done = await terminal(args, mock.server.url).until(/exit-\d+/);
    expect(done.trim()).toBe('exit-0');
  });
});

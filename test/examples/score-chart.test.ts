// The example dashboard's score chart, rendered to markup: every point inside the plot, whatever the
// scores (the API bounds them at 0, not at 100).
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';

// The example is type-checked under its own tsconfig.json (JSX), not the suite's: loaded by its URL.
const chart = new URL('../../examples/dashboard/src/ScoreChart.tsx', import.meta.url).href;
const { ScoreChart } = (await import(chart)) as {
  ScoreChart: (props: { history: { date: string; score: number }[]; current: number }) => unknown;
};

/** The y of each point of the chart's line. */
function lineYs(markup: string): number[] {
  const points = /<polyline[^>]*points="([^"]+)"/.exec(markup)?.[1] ?? '';
  return points.split(' ').map((pair) => Number(pair.split(',')[1]));
}

describe('examples/dashboard ScoreChart', () => {
  it.each([[[40, 52, 61]], [[90, 120, 150]]])('draws every point of %o inside the plot', (scores) => {
    const history = scores.map((score, i) => ({ date: `2026-0${i + 1}-01`, score })).reverse();
    const markup = renderToStaticMarkup(
      createElement(ScoreChart as never, { history, current: scores.at(-1)! }),
    );
    const ys = lineYs(markup);
    expect(ys).toHaveLength(scores.length);
    // The plot runs from pad.top (12) to height - pad.bottom (194).
    for (const y of ys) {
      expect(y).toBeGreaterThanOrEqual(12);
      expect(y).toBeLessThanOrEqual(194);
    }
  });

  it("renders without a warning from React (a point's title is one string)", () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const history = [
        { date: '2026-01-01', score: 40 },
        { date: '2026-02-01', score: 52 },
      ];
      const markup = renderToStaticMarkup(createElement(ScoreChart as never, { history, current: 52 }));
      expect(markup).toContain('<title>2026-02-01: 52</title>');
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });

  it('draws the oldest point on the left, whatever order the history comes in', () => {
    const newestFirst = [
      { date: '2026-03-01', score: 61 },
      { date: '2026-02-01', score: 52 },
      { date: '2026-01-01', score: 40 },
    ];
    const render = (history: typeof newestFirst) =>
      renderToStaticMarkup(createElement(ScoreChart as never, { history, current: 61 }));
    const drawn = render(newestFirst);
    expect(render([...newestFirst].reverse())).toBe(drawn);
    const ys = lineYs(drawn);
    // Rising scores: each point higher on the page (a smaller y) than the one before it.
    expect(ys[0]).toBeGreaterThan(ys[1]!);
    expect(ys[1]).toBeGreaterThan(ys[2]!);
  });
});

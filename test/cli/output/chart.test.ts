import { describe, expect, it } from 'vitest';
import { scoreChart, scoreRows, scoreTable } from '../../../src/cli/output/chart.js';
import { displayWidth } from '../../../src/cli/output/width.js';

const history = Array.from({ length: 12 }, (_, i) => ({
  date: `${2024 - i}-12-31`,
  score: 90 + ((i * 7) % 11),
}));

describe('the score chart', () => {
  it('labels whole scores with whole numbers', () => {
    const chart = scoreChart(history, 120);
    expect(chart).toMatch(/^ *100 ┤/m);
    expect(chart).not.toMatch(/\d\.\d\d/);
    expect(
      scoreChart(
        [
          { date: '2024-12-31', score: 1.5 },
          { date: '2023-12-31', score: 2.25 },
        ],
        80,
      ),
    ).toMatch(/2\.25 [┤┼]/);
  });

  it('is as wide as the terminal allows, with several dates under it, oldest first', () => {
    for (const width of [50, 120, 220]) {
      const lines = scoreChart(history, width).trimEnd().split('\n');
      const widest = Math.max(...lines.map(displayWidth));
      expect(widest).toBeLessThanOrEqual(width);
      expect(widest).toBeGreaterThan(width - 4);
      const dates = lines.at(-1)!.match(/\d{4}-\d{2}-\d{2}/g) ?? [];
      expect(dates.length).toBeGreaterThanOrEqual(width >= 120 ? 5 : 2);
      expect(dates[0]).toBe('2013-12-31');
      expect(dates.at(-1)).toBe('2024-12-31');
    }
  });

  it('draws the same chart from a history in any order (the API promises none)', () => {
    const oldestFirst = [...history].reverse();
    const shuffled = history.map((_, i) => history[(i * 5) % history.length]!);
    expect(scoreChart(oldestFirst, 120)).toBe(scoreChart(history, 120));
    expect(scoreChart(shuffled, 120)).toBe(scoreChart(history, 120));
    // The table under it lists the most recent first, whatever the order it came in.
    const table = scoreTable({ current: 90, history: oldestFirst }, 120, false);
    const dates = table.match(/\d{4}-12-31/g) ?? [];
    expect(dates).toEqual(history.map((point) => point.date));
  });

  it.each([
    ['whole scores over a small range', [80, 81, 82, 80, 81]],
    ['whole scores over a range of 13', [40, 53, 47, 41, 52]],
    ['scores a hundredth apart', [1.5, 1.51, 1.52, 1.5]],
    ['scores a thousandth apart', [0.512, 0.513, 0.514, 0.512]],
    ['scores over a wide range', [1.25, 97.5, 40.1, 3]],
    ['one score throughout', [7, 7, 7]],
    ['differences past the finest label', [1, 1.000000000001, 1.000000000002]],
    ['differences of a millionth', [1, 1.000001, 1.000002]],
  ])('never repeats a label of the y axis: %s', (_, scores) => {
    const points = scores.map((score, i) => ({ date: `${2024 - i}-12-31`, score }));
    const lines = scoreChart(points, 80).trimEnd().split('\n').slice(0, -1);
    const labels = lines.flatMap((line) => /^ *([\d.-]+) ?[┤┼]/.exec(line)?.[1] ?? []);
    expect(labels.length).toBe(lines.length);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('gives csv, tsv and jsonl one row per point', () => {
    expect(scoreRows(42, { current: 1, history: history.slice(0, 2) })).toEqual([
      { journal_id: 42, date: '2024-12-31', score: 90 },
      { journal_id: 42, date: '2023-12-31', score: 97 },
    ]);
  });
});

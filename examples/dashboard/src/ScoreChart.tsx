import type { ScorePoint } from 'scholarly-metrics';

const width = 420;
const height = 220;
const pad = { top: 12, right: 12, bottom: 26, left: 34 };

/** A line of the scores over time, drawn as inline SVG: no chart library in the bundle. */
export function ScoreChart({ history, current }: { history: readonly ScorePoint[]; current: number }) {
  // A chart reads left to right, oldest first; the API promises no order (its sample lists the most
  // recent entry first), so the points are sorted by their dates.
  const points = [...history].sort((a, b) => a.date.localeCompare(b.date));
  if (points.length === 0) return <p className="muted">No history yet. Current score: {current}.</p>;
  const scores = points.map((point) => point.score);
  // Scores are integers with no upper bound in the API: the axis fits the data, from 0 up.
  const low = Math.max(0, Math.min(...scores) - 5);
  const high = Math.max(...scores) + 5;
  const x = (i: number) =>
    pad.left + (points.length === 1 ? 0 : (i / (points.length - 1)) * (width - pad.left - pad.right));
  const y = (score: number) =>
    pad.top + (1 - (score - low) / Math.max(1, high - low)) * (height - pad.top - pad.bottom);
  const line = points.map((point, i) => `${x(i).toFixed(1)},${y(point.score).toFixed(1)}`).join(' ');
  const first = points[0]!;
  const last = points[points.length - 1]!;

  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        role="img"
        aria-label={`Score history, now ${current}`}
      >
        <line
          x1={pad.left}
          y1={height - pad.bottom}
          x2={width - pad.right}
          y2={height - pad.bottom}
          stroke="#ccc"
        />
        <line x1={pad.left} y1={pad.top} x2={pad.left} y2={height - pad.bottom} stroke="#ccc" />
        <text x={pad.left - 6} y={y(high) + 4} textAnchor="end" fontSize="13">
          {high}
        </text>
        <text x={pad.left - 6} y={y(low) + 4} textAnchor="end" fontSize="13">
          {low}
        </text>
        <text x={pad.left} y={height - 6} fontSize="13">
          {first.date}
        </text>
        <text x={width - pad.right} y={height - 6} textAnchor="end" fontSize="13">
          {last.date}
        </text>
        <polyline points={line} fill="none" stroke="#2563eb" strokeWidth="2" />
        {points.map((point, i) => (
          <circle key={point.date} cx={x(i)} cy={y(point.score)} r="3" fill="#2563eb">
            {/* One string: React takes a title's text whole, not as several children. */}
            <title>{`${point.date}: ${point.score}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption className="muted">
        Current score <strong data-testid="current-score">{current}</strong>, {points.length} entries.
      </figcaption>
    </figure>
  );
}

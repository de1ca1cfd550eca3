import type { Spread } from './lib.js';

export const telemetryNames = {
  before: 'scholarly-metrics before telemetry',
  off: 'scholarly-metrics, no telemetry',
  on: 'scholarly-metrics, telemetry on (real OpenTelemetry SDK, in-memory exporter)',
  floor: 'no telemetry, wrapped in one active span and one histogram record by hand (the same providers)',
  span: 'no telemetry, one bare span by hand (made and ended, not active, no span processor, no metric)',
} as const;

export interface TelemetryResult {
  before: string;
  rounds: number;
  batch: number;
  contenders: Array<{ name: string; wall: Spread; cpu: Spread }>;
  ratios: Array<{ of: string; to: string; wall: Spread; cpu: Spread }>;
}

/** Issue 24's targets: per request on loopback, paired. */
export const telemetryTargets = { off: 1.01, on: 1.05 } as const;

const x = (ratio: number) => `×${ratio.toFixed(3)}`;
const us = (value: number) => `${value.toFixed(0)} µs`;

/** Section 12 of BENCHMARKS.md: what telemetry costs a request, off and on. */
export function telemetrySection(result: TelemetryResult | undefined): string {
  if (result === undefined) return '';
  const ratio = (of: string) => result.ratios.find((r) => r.of === of)!;
  const off = ratio(telemetryNames.off);
  const on = ratio(telemetryNames.on);
  const floor = ratio(telemetryNames.floor);
  const span = result.ratios.find((r) => r.of === telemetryNames.span);
  const onFloor = result.ratios.find((r) => r.of === telemetryNames.on && r.to === telemetryNames.floor);
  const verdict = (value: number, target: number) => (value <= target ? '**met**' : '**not met**');
  return [
    '## 12. Telemetry',
    '',
    '`npx tsx bench/telemetry.ts` (bench/telemetry.ts): one journal profile per request from the mock on loopback,',
    `one at a time, ${result.rounds} rounds of ${result.batch}, the contenders interleaved; paired ratios per round.`,
    `"Before" is the SDK built from ${result.before}, the code issue 24 started from.`,
    '',
    '| client | wall per request (median) | CPU per request (median) |',
    '|---|---|---|',
    ...result.contenders.map((c) => `| ${c.name} | ${us(c.wall.median)} | ${us(c.cpu.median)} |`),
    '',
    '| ratio (paired, median [p25, p75]) | wall | CPU | target |  |',
    '|---|---|---|---|---|',
    `| no telemetry ÷ before | ${x(off.wall.median)} [${x(off.wall.p25)}, ${x(off.wall.p75)}] | ${x(off.cpu.median)} | ≤ ${x(telemetryTargets.off)} | ${verdict(off.wall.median, telemetryTargets.off)} |`,
    `| telemetry on ÷ no telemetry | ${x(on.wall.median)} [${x(on.wall.p25)}, ${x(on.wall.p75)}] | ${x(on.cpu.median)} | ≤ ${x(telemetryTargets.on)} | ${verdict(on.wall.median, telemetryTargets.on)} |`,
    `| the floor ÷ no telemetry | ${x(floor.wall.median)} [${x(floor.wall.p25)}, ${x(floor.wall.p75)}] | ${x(floor.cpu.median)} | | reference |`,
    ...(span
      ? [
          `| one bare span ÷ no telemetry | ${x(span.wall.median)} [${x(span.wall.p25)}, ${x(span.wall.p75)}] | ${x(span.cpu.median)} | | reference |`,
        ]
      : []),
    ...(onFloor
      ? [
          `| telemetry on ÷ the floor | ${x(onFloor.wall.median)} [${x(onFloor.wall.p25)}, ${x(onFloor.wall.p75)}] | ${x(onFloor.cpu.median)} | | what the SDK adds beyond it |`,
        ]
      : []),
    '',
    'The floor is what any instrumentation of a call pays with these providers: one span made active',
    'around the call (the AsyncLocalStorage context manager, the simple span processor) and one histogram',
    "record. The OpenTelemetry SDK's own cost per span sets it; telemetry on is measured against it to",
    'show what the SDK adds beyond that floor. One bare span is the least a call traced with the real',
    'SDK can cost: a span made and ended around the call, never made active, kept by no span processor',
    "(so never exported), and no metric. Issue 24's ×1.050 must hold that and everything beyond it:",
    'making the span active, exporting it, and recording the metrics.',
    '',
  ].join('\n');
}

// §12, telemetry per request: the SDK before telemetry, without it, with the real OpenTelemetry SDK, and two
// references made by hand around the call.
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import * as trace from '@opentelemetry/sdk-trace-base';
import { ratioOf, table, us, verdict } from './format.js';
import { compare, loadDist, loadTesting, root, scaled, withServer } from './lib.js';
import type { Report, Results } from './report.js';

export const about = { id: '12', key: 'telemetry', file: 'telemetry.ts', title: 'Telemetry' };

const names = {
  before: 'scholarly-metrics before telemetry',
  off: 'scholarly-metrics, no telemetry',
  on: 'scholarly-metrics, telemetry on (real OpenTelemetry SDK, in-memory exporter)',
  floor: 'no telemetry, wrapped in one active span and one histogram record by hand (the same providers)',
  span: 'no telemetry, one bare span by hand (made and ended, not active, no span processor, no metric)',
} as const;
/** The paired ratios, each judged against §12's target per request on loopback, or a reference. */
const comparisons: Array<[string, string, string, number | string]> = [
  ['no telemetry ÷ before', names.off, names.before, 1.01],
  ['telemetry on ÷ no telemetry', names.on, names.off, 1.05],
  ['the floor ÷ no telemetry', names.floor, names.off, 'reference'],
  ['one bare span ÷ no telemetry', names.span, names.off, 'reference'],
  ['telemetry on ÷ the floor', names.on, names.floor, 'what the SDK adds'],
];

/** The built SDK before telemetry: `BENCH_BEFORE_DIST`, or a build of `BENCH_BEFORE_REF` made here. */
function beforeDist(): { dist: string; label: string } {
  const given = process.env.BENCH_BEFORE_DIST;
  if (given) return { dist: given, label: given };
  const ref = process.env.BENCH_BEFORE_REF ?? '432d4b1';
  const dir = join(root, 'node_modules/.cache/scholarly-metrics-bench/before', ref);
  if (!existsSync(join(dir, 'dist/index.js'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execSync(`git archive ${ref} | tar -x -C "${dir}"`, { cwd: root });
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    execFileSync(join(root, 'node_modules/.bin/tsup'), { cwd: dir, stdio: ['ignore', 2, 2] });
  }
  return { dist: join(dir, 'dist'), label: `git ${ref}` };
}

class Reader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** The providers an application sets up, and the two references made by hand around `get`. */
function instrumentation(exporter: trace.InMemorySpanExporter) {
  const spanProcessors = [new trace.SimpleSpanProcessor(exporter)];
  const tracerProvider = new trace.BasicTracerProvider({ spanProcessors });
  const meterProvider = new MeterProvider({ readers: [new Reader()] });
  const tracer = tracerProvider.getTracer('bench-floor');
  const meter = meterProvider.getMeter('bench-floor');
  const histogram = meter.createHistogram('bench.floor.duration', { unit: 's' });
  const attributes = { 'http.request.method': 'GET', 'url.template': '/journals/{id}' };
  const bareTracer = new trace.BasicTracerProvider().getTracer('bench-bare-span');
  const floor = <T>(get: () => Promise<T>) =>
    tracer.startActiveSpan('journals.get', { attributes }, async (span) => {
      const started = performance.now();
      try {
        return await get();
      } finally {
        span.end();
        const method = { 'scholarly_metrics.method': 'journals.get' };
        histogram.record((performance.now() - started) / 1000, method);
      }
    });
  const bareSpan = async <T>(get: () => Promise<T>) => {
    const span = bareTracer.startSpan('journals.get');
    try {
      return await get();
    } finally {
      span.end();
    }
  };
  return { telemetry: { tracerProvider, meterProvider }, floor, bareSpan };
}

export async function measure() {
  const before = beforeDist();
  type Sdk = typeof import('../src/index.js');
  const { MetricClient: BeforeClient } = await loadDist<Sdk>('index.js', before.dist);
  const { MetricClient } = await loadDist<Sdk>('index.js');
  const { MOCK_API_KEY } = await loadTesting();
  const exporter = new trace.InMemorySpanExporter();
  const { telemetry, floor, bareSpan } = instrumentation(exporter);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  try {
    return await withServer({ kind: 'mock', options: {} }, async ({ url }) => {
      const options = { apiKey: MOCK_API_KEY, baseUrl: url };
      const [beforeClient, off] = [new BeforeClient(options), new MetricClient(options)];
      const on = new MetricClient({ ...options, telemetry });
      const get = (client: typeof off, i: number) => client.journals.get((i % 400) + 1);
      // The exporter keeps every span: emptied so that memory does not grow through the run.
      const exported = async <T>(i: number, call: Promise<T>) => {
        const result = await call;
        if (i % 20 === 19) exporter.reset();
        return result;
      };
      const floored = (i: number) => floor(() => get(off, i));
      const contenders = {
        [names.before]: (i: number) => get(beforeClient, i),
        [names.off]: (i: number) => get(off, i),
        [names.on]: (i: number) => exported(i, get(on, i)),
        [names.floor]: (i: number) => exported(i, floored(i)),
        [names.span]: (i: number) => bareSpan(() => get(off, i)),
      };
      const timing = { rounds: scaled(200, 6), batch: scaled(20, 5), warmup: scaled(300, 5) };
      const pairs = comparisons.map(([, of, to]) => [of, to] as const);
      const { samples: _, ...figures } = await compare(contenders, timing, pairs);
      return { before: before.label, ...figures };
    });
  } finally {
    context.disable();
  }
}

const times = (ratio: number) => `×${ratio.toFixed(3)}`;

function ratioRows(t: Results['telemetry']): string[][] {
  return comparisons.map(([label, of, to, target]) => {
    const r = ratioOf(t.ratios, of, to);
    const wall = `${times(r.wall.median)} [${times(r.wall.p25)}, ${times(r.wall.p75)}]`;
    const judged =
      typeof target === 'string' ? ['', target] : [`≤ ${times(target)}`, verdict(r.wall.median <= target)];
    return [label, wall, times(r.cpu.median), ...judged];
  });
}

export function report(t: Results['telemetry']): Report {
  const clients = t.contenders.map((c) => [c.name, us(c.wall.median), us(c.cpu.median)]);
  const text = `bench/telemetry.ts: one journal profile per request from the mock on loopback, one at a time, ${t.rounds} rounds of ${t.batch},
interleaved, ratios paired per round. "Before" is the SDK built from ${t.before}, where issue 24 started.

${table(['client', 'wall per request (median)', 'CPU per request (median)'], clients)}

${table(['ratio (paired, median [p25, p75])', 'wall', 'CPU', 'target', ''], ratioRows(t))}

The floor is what any instrumentation pays with these providers: one span made active around the call
(AsyncLocalStorage context manager, simple span processor) and one histogram record; telemetry on ÷ the floor is what
the SDK adds beyond it. One bare span (never active, no processor, no metric) is the least a traced call can cost;
issue 24's ×1.050 must hold it and all beyond: the span made active, exported, the metrics recorded.`;
  return { text };
}

/**
 * 12. Telemetry: one journal profile per request on loopback, one at a time, by three clients in
 * turn: the SDK before telemetry existed (a build of `BENCH_BEFORE_REF`, the commit issue 24 started
 * from, or the build at `BENCH_BEFORE_DIST`), this SDK without `telemetry`, and this SDK with the real
 * OpenTelemetry SDK (tracer and meter providers, an in-memory span exporter, the async-hooks context
 * manager, as an application sets them up); and, as the floor any instrumentation pays, this SDK
 * without `telemetry` wrapped by hand in one active span and one histogram record through the same
 * providers; and, as the least any traced call pays, one bare span made and ended around the call by
 * a tracer provider with no span processor. Paired ratios per round.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  type Contender,
  figures,
  interleave,
  loadSdk,
  loadTesting,
  report,
  root,
  startServer,
} from './lib.js';
import { type TelemetryResult, telemetryNames } from './report-telemetry.js';

const defaultBeforeRef = '432d4b1';

/** The built SDK before telemetry: `BENCH_BEFORE_DIST`, or a build of `BENCH_BEFORE_REF` made here. */
function beforeDist(): { dist: string; label: string } {
  const given = process.env.BENCH_BEFORE_DIST;
  if (given) return { dist: given, label: given };
  const ref = process.env.BENCH_BEFORE_REF ?? defaultBeforeRef;
  const dir = join(root, 'node_modules/.cache/scholarly-metrics-bench/before', ref);
  if (!existsSync(join(dir, 'dist/index.js'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const archive = spawnSync('sh', ['-c', `git archive ${ref} | tar -x -C "${dir}"`], { cwd: root });
    if (archive.status !== 0) throw new Error(`git archive ${ref} failed`);
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const build = spawnSync(join(root, 'node_modules/.bin/tsup'), [], { cwd: dir, stdio: ['ignore', 2, 2] });
    if (build.status !== 0) throw new Error(`building ${ref} failed`);
  }
  return { dist: join(dir, 'dist'), label: `git ${ref}` };
}

class Reader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

async function main(): Promise<TelemetryResult> {
  const { MetricClient } = await loadSdk();
  const before = beforeDist();
  const { MetricClient: BeforeClient } = (await import(
    pathToFileURL(join(before.dist, 'index.js')).href
  )) as typeof import('../src/index.js');
  const { MOCK_API_KEY } = await loadTesting();
  const server = await startServer({ kind: 'mock', options: {} });
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const meterProvider = new MeterProvider({ readers: [new Reader()] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  try {
    const { url } = server;
    const options = { apiKey: MOCK_API_KEY, baseUrl: url };
    const beforeClient = new BeforeClient(options);
    const off = new MetricClient(options);
    const on = new MetricClient({ ...options, telemetry: { tracerProvider, meterProvider } });
    const journal = (i: number) => (i % 400) + 1;
    const tracer = tracerProvider.getTracer('bench-floor');
    const histogram = meterProvider
      .getMeter('bench-floor')
      .createHistogram('bench.floor.duration', { unit: 's' });
    const attributes = { 'http.request.method': 'GET', 'url.template': '/journals/{id}' };
    const bareTracer = new BasicTracerProvider().getTracer('bench-bare-span');
    const bareSpan = async (i: number) => {
      const span = bareTracer.startSpan('journals.get');
      try {
        return await off.journals.get(journal(i));
      } finally {
        span.end();
      }
    };
    const floor = (i: number) =>
      tracer.startActiveSpan('journals.get', { attributes }, async (span) => {
        const started = performance.now();
        try {
          return await off.journals.get(journal(i));
        } finally {
          span.end();
          histogram.record((performance.now() - started) / 1000, {
            'scholarly_metrics.method': 'journals.get',
          });
        }
      });
    const contenders: Contender[] = [
      { name: telemetryNames.before, run: (i) => beforeClient.journals.get(journal(i)) },
      { name: telemetryNames.off, run: (i) => off.journals.get(journal(i)) },
      {
        name: telemetryNames.on,
        run: async (i) => {
          const journalProfile = await on.journals.get(journal(i));
          // The exporter keeps every span: emptied so that memory does not grow through the run.
          if (i % 20 === 19) exporter.reset();
          return journalProfile;
        },
      },
      {
        name: telemetryNames.floor,
        run: async (i) => {
          const journalProfile = await floor(i);
          if (i % 20 === 19) exporter.reset();
          return journalProfile;
        },
      },
      { name: telemetryNames.span, run: bareSpan },
    ];
    const rounds = 200;
    const batch = 20;
    const { contender, ratio } = figures(await interleave(contenders, { rounds, batch, warmup: 300 }));
    return {
      before: before.label,
      rounds,
      batch,
      contenders: contenders.map(({ name }) => contender(name)),
      ratios: [
        ratio(telemetryNames.off, telemetryNames.before),
        ratio(telemetryNames.on, telemetryNames.off),
        ratio(telemetryNames.floor, telemetryNames.off),
        ratio(telemetryNames.on, telemetryNames.floor),
        ratio(telemetryNames.span, telemetryNames.off),
      ],
    };
  } finally {
    context.disable();
    await server.close();
  }
}

await report(main);

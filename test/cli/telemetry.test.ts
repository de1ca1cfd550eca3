// The command line's OpenTelemetry export: with OTEL_EXPORTER_OTLP_ENDPOINT set, the real bin sends
// its spans and metrics over OTLP/HTTP to a receiver of the test's own on 127.0.0.1, before it exits
// (after Ctrl-C too); without the OpenTelemetry packages, a usage error naming them.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { telemetryPackages } from '../../src/cli/telemetry.js';
import { startMockServer } from '../../src/testing/index.js';
import { run, runBin, start } from './helpers.js';

interface Export {
  path: string;
  contentType: string | undefined;
  body: {
    resourceSpans?: Array<{
      scopeSpans: Array<{
        scope: { name: string };
        spans: Array<{ name: string; kind: number; attributes: Array<{ key: string }> }>;
      }>;
    }>;
    resourceMetrics?: Array<{
      scopeMetrics: Array<{ scope: { name: string }; metrics: Array<{ name: string }> }>;
    }>;
  };
}

const exports: Export[] = [];
let endpoint = '';
const receiver = createServer((req, res) => {
  let text = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => {
    text += chunk;
  });
  req.on('end', () => {
    exports.push({ path: req.url ?? '', contentType: req.headers['content-type'], body: JSON.parse(text) });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

const spanNames = () =>
  exports.flatMap((e) =>
    (e.body.resourceSpans ?? []).flatMap((r) =>
      r.scopeSpans.flatMap((s) => s.spans.map((span) => span.name)),
    ),
  );
const metricNames = () =>
  exports.flatMap((e) =>
    (e.body.resourceMetrics ?? []).flatMap((r) =>
      r.scopeMetrics.flatMap((s) => s.metrics.map((m) => m.name)),
    ),
  );

describe('the command line exports over OTLP/HTTP', { timeout: 60_000 }, () => {
  it('the real bin sends its spans and metrics before it exits', async () => {
    exports.length = 0;
    const result = await runBin(['--mock', 'journals', 'get', '1'], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(exports.map((e) => e.path).sort()).toEqual(['/v1/metrics', '/v1/traces']);
    expect(exports.every((e) => e.contentType?.startsWith('application/json'))).toBe(true);
    expect(spanNames()).toEqual(['journals.get']);
    expect(metricNames()).toContain('scholarly_metrics.client.duration');
  });

  it('after Ctrl-C, what was recorded is still sent', async () => {
    exports.length = 0;
    // A walk of every page from a slow mock, stopped once its first records are out.
    const mock = await startMockServer({ faults: { latencyMs: 200 } });
    try {
      const walk = start(['papers', 'search', '--q', 'climate', '--all', '--format', 'jsonl'], {
        url: mock.url,
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint },
      });
      while (walk.output().stdout === '') await new Promise((resolve) => setTimeout(resolve, 20));
      walk.child.kill('SIGINT');
      const result = await walk.exited;
      expect(result.code).toBe(130);
    } finally {
      await mock.close();
    }
    expect(spanNames().filter((name) => name === 'papers.search').length).toBeGreaterThan(0);
  });

  it('without the OpenTelemetry packages: a usage error (exit 2) naming what to install', async () => {
    vi.doMock('@opentelemetry/exporter-trace-otlp-http', () => {
      throw new Error("Cannot find package '@opentelemetry/exporter-trace-otlp-http'");
    });
    try {
      const result = await run(['--mock', 'journals', 'get', '1'], {
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint },
      });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`npm install ${telemetryPackages.join(' ')}`);
    } finally {
      vi.doUnmock('@opentelemetry/exporter-trace-otlp-http');
    }
  });
});

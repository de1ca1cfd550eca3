// The command line's OpenTelemetry export: with OTEL_EXPORTER_OTLP_ENDPOINT set, the real bin sends
// its spans and metrics over OTLP/HTTP to a receiver of the test's own on 127.0.0.1, before it exits
// (after Ctrl-C too), none of a Redis error's text among them; without the OpenTelemetry packages, a
// usage error naming them. The flush's bound: telemetry-flush.test.ts; an endpoint that is not a URL:
// telemetry-endpoints.test.ts; hostile collectors: telemetry-exit.test.ts.
import { createServer } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { telemetryPackages } from '../../src/cli/telemetry.js';
import { startMockServer } from '../../src/testing/index.js';
import { run, runBin, start } from './helpers.js';

interface Export {
  encoding?: string | undefined;
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
    const encoding = req.headers['content-encoding'];
    const body = encoding === undefined ? JSON.parse(text) : {};
    exports.push({ path: req.url ?? '', contentType: req.headers['content-type'], encoding, body });
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
      // Set for other tools: the command line reads no compression variable (docs/cli.md).
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip' },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(exports.map((e) => e.path).sort()).toEqual(['/v1/metrics', '/v1/traces']);
    expect(exports.every((e) => e.contentType?.startsWith('application/json'))).toBe(true);
    expect(exports.map((e) => e.encoding)).toEqual([undefined, undefined]);
    // The command's span, and its call's span inside it.
    expect(spanNames().sort()).toEqual(['journals.get', 'scholarly-metrics journals get']);
    expect(metricNames()).toContain('scholarly_metrics.client.duration');
  });

  it('with NODE_USE_ENV_PROXY=1, exports go through the proxy the environment names, as API requests do', async () => {
    // A forward proxy of the test's own: it records the absolute URL each request names and answers.
    const proxied: string[] = [];
    const proxy = createServer((req, res) => {
      proxied.push(req.url ?? '');
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const result = await runBin(['--mock', 'journals', 'get', '1'], {
        env: {
          OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
          NODE_USE_ENV_PROXY: '1',
          HTTP_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
          NO_PROXY: '',
        },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(proxied.sort()).toEqual([`${endpoint}/v1/metrics`, `${endpoint}/v1/traces`]);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
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

/**
 * A Redis on 127.0.0.1 that takes the connection's handshake and answers every script with an error
 * that quotes `password`, as a proxy or a misconfigured server might.
 */
async function redisQuotingPassword(password: string) {
  const server = createTcpServer((socket) => {
    let buffered = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => {
      buffered += chunk;
      // Each command is an array of bulk strings: `*N`, then `$len` and the argument, N times.
      for (let match = /^\*(\d+)\r\n/.exec(buffered); match; match = /^\*(\d+)\r\n/.exec(buffered)) {
        const lines = buffered.split('\r\n');
        const count = Number(match[1]);
        if (lines.length < 2 + count * 2) return;
        const name = lines[2]!.toUpperCase();
        buffered = lines.slice(1 + count * 2).join('\r\n');
        socket.write(name.startsWith('EVAL') ? `-ERR WRONGPASS for '${password}'\r\n` : '+OK\r\n');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://:${password}@127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe('with --redis and OTLP', { timeout: 60_000 }, () => {
  it('a Redis error that quotes the password: masked on stderr, absent from the exported span', async () => {
    const password = 'pw-4e7f1a9c2b';
    const redis = await redisQuotingPassword(password);
    exports.length = 0;
    try {
      const result = await runBin(['--mock', '--redis', redis.url, 'journals', 'get', '1'], {
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint },
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('QuotaUnavailableError');
      expect(result.stderr).not.toContain(password);
    } finally {
      await redis.close();
    }
    const spans = exports.flatMap((e) =>
      (e.body.resourceSpans ?? []).flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)),
    );
    expect(spans.map((span) => [span.name, (span as { status?: unknown }).status]).sort()).toEqual([
      ['journals.get', { code: 2, message: 'QuotaUnavailableError' }],
      ['scholarly-metrics journals get', { code: 2, message: 'QuotaUnavailableError' }],
    ]);
    expect(JSON.stringify(exports)).not.toContain(password);
  });
});

// The command line's traces: one root span per command with its calls' spans as children, the
// standard OTEL_* variables heard, and a `--limit` walk that requests no page past the limit-th
// record and records no error. In-process runs exporting over OTLP/HTTP to a receiver of the test's.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useMockServer as mockServer } from '../support.js';
import { run } from './helpers.js';
import { type OtlpReceiver, startOtlpReceiver } from './otlp-receiver.js';

const mock = mockServer({ sizes: { journals: 10, papers: 400, authors: 20 } });
let otlp: OtlpReceiver;
beforeAll(async () => {
  otlp = await startOtlpReceiver();
});
afterAll(async () => otlp?.close());
beforeEach(() => otlp.reset());

const traced = (args: string[], env: Record<string, string> = {}) =>
  run(args, { url: mock.server.url, env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, ...env } });
const errorCode = 2;

describe('the command line traces each command as one trace', { timeout: 60_000 }, () => {
  it('--limit 45 --per-page 20: three pages, children of the command span, no error anywhere', async () => {
    const before = mock.api.requests.length;
    const result = await traced([
      'papers',
      'search',
      '--limit',
      '45',
      '--per-page',
      '20',
      '--prefetch',
      '2',
      '--format',
      'jsonl',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(45);
    const pages = mock.api.requests
      .slice(before)
      .map((request) => new URL(request.path, 'http://x').searchParams.get('page'));
    expect(pages).toEqual(['1', '2', '3']);
    const spans = otlp.spans();
    const [root] = spans.filter((span) => span.name === 'scholarly-metrics papers search');
    expect(root).toBeDefined();
    expect(root!.parentSpanId ?? '').toBe('');
    const calls = spans.filter((span) => span.name === 'papers.search');
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      expect(call.traceId).toBe(root!.traceId);
      expect(call.parentSpanId).toBe(root!.spanId);
    }
    expect(spans.filter((span) => span.status?.code === errorCode)).toEqual([]);
  });

  it('a failing command: its span is ERROR with the error class, none of its text', async () => {
    const result = await traced(['journals', 'get', '999999']);
    expect(result.code).toBe(1);
    const [root] = otlp.spans().filter((span) => span.name === 'scholarly-metrics journals get');
    expect(root!.status?.code).toBe(errorCode);
    expect(root!.attributes['error.type']).toBe('NotFoundError');
  });

  it('OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (percent-decoded) describe the resource', async () => {
    const result = await traced(['journals', 'get', '1'], {
      OTEL_SERVICE_NAME: 'nightly-harvest',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod%20eu, team=data,service.name=ignored',
    });
    expect(result.code, result.stderr).toBe(0);
    const [span] = otlp.spans();
    expect(span!.resource).toMatchObject({
      'service.name': 'nightly-harvest',
      'deployment.environment': 'prod eu',
      team: 'data',
    });
  });

  it("OTEL_RESOURCE_ATTRIBUTES's service.name without OTEL_SERVICE_NAME; the default otherwise", async () => {
    await traced(['journals', 'get', '1'], { OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attributes' });
    expect(otlp.spans()[0]!.resource['service.name']).toBe('from-attributes');
    otlp.reset();
    await traced(['journals', 'get', '1']);
    expect(otlp.spans()[0]!.resource['service.name']).toBe('scholarly-metrics-cli');
  });

  it('OTEL_EXPORTER_OTLP_HEADERS and the signal-specific headers go with the exports', async () => {
    await traced(['journals', 'get', '1'], {
      OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=a%2Cb,authorization=Bearer%20t0ken',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-tenant=traces-only',
    });
    const headers = otlp.headers();
    expect(headers.length).toBeGreaterThan(0);
    for (const sent of headers) expect(sent.authorization).toBe('Bearer t0ken');
    expect(headers.map((sent) => sent['x-tenant']).sort()).toEqual(['a,b', 'traces-only']);
  });

  it('OTEL_TRACES_SAMPLER=always_off exports no span; traceidratio with an arg of 1 exports them', async () => {
    await traced(['journals', 'get', '1'], { OTEL_TRACES_SAMPLER: 'always_off' });
    expect(otlp.spans()).toEqual([]);
    await traced(['journals', 'get', '1'], {
      OTEL_TRACES_SAMPLER: 'traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '1',
    });
    expect(
      otlp
        .spans()
        .map((span) => span.name)
        .sort(),
    ).toEqual(['journals.get', 'scholarly-metrics journals get']);
  });

  it('OTEL_TRACES_EXPORTER=none exports no span; OTEL_SDK_DISABLED=true nothing at all', async () => {
    expect((await traced(['journals', 'get', '1'], { OTEL_TRACES_EXPORTER: 'none' })).code).toBe(0);
    expect(otlp.spans()).toEqual([]);
    expect(otlp.headers().length).toBeGreaterThan(0);
    otlp.reset();
    expect((await traced(['journals', 'get', '1'], { OTEL_SDK_DISABLED: 'true' })).code).toBe(0);
    expect(otlp.headers()).toEqual([]);
  });

  it('a value that cannot be read is a usage error naming its variable, quoting none of it', async () => {
    for (const [name, value] of [
      ['OTEL_RESOURCE_ATTRIBUTES', 'team'],
      ['OTEL_EXPORTER_OTLP_HEADERS', 'authorization=%E0%A4%A-s3cret'],
      ['OTEL_TRACES_SAMPLER', 'sometimes'],
      ['OTEL_TRACES_SAMPLER_ARG', '2'],
      ['OTEL_METRICS_EXPORTER', 'prometheus'],
    ] as const) {
      const env: Record<string, string> = { [name]: value };
      if (name === 'OTEL_TRACES_SAMPLER_ARG') env.OTEL_TRACES_SAMPLER = 'traceidratio';
      const result = await traced(['journals', 'get', '1'], env);
      expect(result.code, name).toBe(2);
      expect(result.stderr).toContain(name);
      expect(result.stderr).not.toContain('s3cret');
    }
  });
});

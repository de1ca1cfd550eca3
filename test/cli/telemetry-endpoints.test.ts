// Where the command line sends its OTLP exports, and the usage error for an endpoint that is not a URL.
import { describe, expect, it } from 'vitest';
import { exportEndpoints } from '../../src/cli/telemetry.js';
import { run } from './helpers.js';

describe('where the export goes', () => {
  it("below OTEL_EXPORTER_OTLP_ENDPOINT, or at a signal's own endpoint", () => {
    expect(exportEndpoints({})).toBeUndefined();
    expect(exportEndpoints({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/' })).toEqual({
      traces: 'http://127.0.0.1:4318/v1/traces',
      metrics: 'http://127.0.0.1:4318/v1/metrics',
    });
    expect(
      exportEndpoints({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp',
      }),
    ).toEqual({ traces: 'https://traces.example/otlp', metrics: 'http://collector:4318/v1/metrics' });
    expect(exportEndpoints({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://m:4318/v1/metrics' })).toEqual({
      traces: undefined,
      metrics: 'http://m:4318/v1/metrics',
    });
  });

  it.each([
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
  ])('an unparsable %s: a usage error (exit 2) naming it, its credentials masked', async (variable) => {
    for (const value of [
      'http://user:s3cr3t-pass@[::1/?token=tok-9f8e7d',
      'collector:4318?token=tok-9f8e7d',
    ]) {
      const result = await run(['--mock', 'journals', 'get', '1'], { env: { [variable]: value } });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`${variable} expects an http:// or https:// URL`);
      expect(result.stderr).not.toContain('s3cr3t-pass');
      expect(result.stderr).not.toContain('tok-9f8e7d');
    }
  });

  it('refuses only a command that would send: --help, --version and a usage error come first', async () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'nope' };
    for (const args of [['--help'], ['--version'], ['completion', 'bash'], ['journals', '--help']]) {
      const result = await run(args, { env });
      expect([args, result.code, result.stderr]).toEqual([args, 0, '']);
    }
    const unknown = await run(['--mock', 'subjects', 'list', '--nope'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--nope'");
  });
});

// Without `telemetry` the client records nothing and loads none of the telemetry's code; with it,
// the code is loaded with the first call, and a bad option is refused at construction.
import { describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import { createMockApi } from '../../src/testing/index.js';
import { testClient } from '../support.js';
import { useTelemetry } from './harness.js';

const loaded = vi.hoisted(() => ({ client: 0 }));
vi.mock('../../src/telemetry/client-telemetry.js', async (original) => {
  loaded.client++;
  return original();
});

const otel = useTelemetry({ undici: false });
const api = createMockApi();

describe('telemetry off, on, refused', () => {
  it('a client without telemetry records nothing and loads nothing', async () => {
    const client = testClient({ cache: true }, api);
    await client.journals.get(1);
    await client.journals.get(1);
    await client.papers.getMany(['10.9999/none']);
    await client.journals.papers(1, { per_page: 2 }).toArray({ limit: 5 });
    expect(loaded.client).toBe(0);
    expect(otel.spans()).toEqual([]);
    expect((await otel.collect()).scopeMetrics).toEqual([]);
  });

  it('a client with telemetry loads it with its first call', async () => {
    const client = testClient({ telemetry: otel.telemetry }, api);
    expect(loaded.client).toBe(0);
    await client.subjects.list();
    expect(loaded.client).toBe(1);
    expect(otel.named('subjects.list')).toHaveLength(1);
  });

  it('refuses a telemetry option that holds no provider, or a provider that is not one', () => {
    for (const telemetry of [null, 1, {}, { tracerProvider: {} }, { meterProvider: { getMeter: 'x' } }]) {
      expect(() => testClient({ telemetry: telemetry as never }, api)).toThrow(ConfigurationError);
    }
    try {
      testClient({ telemetry: { meterProvider: {} as never } }, api);
    } catch (error) {
      expect((error as ConfigurationError).option).toBe('telemetry');
    }
    expect(() =>
      testClient({ telemetry: { meterProvider: otel.telemetry.meterProvider } }, api),
    ).not.toThrow();
  });
});

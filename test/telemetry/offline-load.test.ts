// A client's telemetry is loaded with its first call. A browser offline cannot fetch that module: the
// call goes on untraced (telemetry never costs a call), and a later call loads it and is traced.
import { describe, expect, it, vi } from 'vitest';
import { createMockApi } from '../../src/testing/index.js';
import { testClient } from '../support.js';
import { useTelemetry } from './harness.js';

const loading = vi.hoisted(() => ({ offline: false }));
vi.mock('../../src/telemetry/client-telemetry.js', async (original) => {
  if (loading.offline) throw new TypeError('Failed to fetch dynamically imported module');
  return original();
});

const otel = useTelemetry({ undici: false });
const api = createMockApi();

describe('telemetry whose module could not be loaded', () => {
  it('leaves that call untraced, and is loaded by a later one', async () => {
    const client = testClient({ telemetry: otel.telemetry }, api);
    loading.offline = true;
    expect((await client.subjects.list()).length).toBeGreaterThan(0);
    expect(otel.spans()).toEqual([]);
    loading.offline = false;
    await client.subjects.list();
    expect(otel.named('subjects.list')).toHaveLength(1);
  });
});

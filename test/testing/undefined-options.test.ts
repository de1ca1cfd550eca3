import { describe, expect, it } from 'vitest';
import { createMockApi, startMockServer } from '../../src/testing/index.js';

// Under exactOptionalPropertyTypes the option types take `undefined`; the mock must read it as "not given".
describe('mock options given as undefined keep their defaults', () => {
  it('sizes, faults, limits and webhooks', () => {
    const api = createMockApi({
      seed: undefined,
      sizes: { papers: undefined, journals: 10 },
      faults: { errorRate: undefined, seed: undefined },
      limits: { perMinute: undefined },
      webhooks: { urls: undefined },
      now: undefined,
    });
    expect(api.dataset.journals).toHaveLength(10);
    expect(api.dataset.papers).toHaveLength(createMockApi().dataset.papers.length);
  });

  it('startMockServer with port and host undefined', async () => {
    const server = await startMockServer({ port: undefined, host: undefined });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    } finally {
      await server.close();
    }
  });
});

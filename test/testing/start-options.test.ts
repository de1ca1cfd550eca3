// What a mock keeps of the options it was made with: reset() restores them as they were checked, the
// size bounds cannot be edited, and the mock's command line takes any seed the library takes.
import { describe, expect, it } from 'vitest';
import { serverOptions, type Values } from '../../src/testing/cli-options.js';
import { createMockApi, MOCK_API_KEY, MOCK_BASE_URL, MOCK_MAX_SIZES } from '../../src/testing/index.js';

describe('a mock made from an options object', () => {
  it('resets to the options as they were when it was made, whatever the object became', () => {
    const options = { seed: 7, sizes: { journals: 3 }, keys: { sk_gold: 'elite' as const } };
    const api = createMockApi(options);
    const first = JSON.stringify(api.dataset.journals);
    options.seed = 8;
    options.sizes.journals = 9;
    (options.keys as Record<string, string>)['has space'] = 'elite';
    api.reset();
    expect(api.dataset.journals).toHaveLength(3);
    expect(JSON.stringify(api.dataset.journals)).toBe(first);
    expect(api.keys.has('has space')).toBe(false);
    expect(api.keys.get('sk_gold')).toBe('elite');
  });

  it('keeps a base URL as a request writes it: no default port', () => {
    expect(createMockApi({ baseUrl: 'http://localhost:80/api/v1' }).baseUrl).toBe('http://localhost/api/v1');
    expect(createMockApi({ baseUrl: 'https://localhost:443/api/v1/' }).baseUrl).toBe(
      'https://localhost/api/v1',
    );
  });
});

describe('reset() with a request in flight', () => {
  it('neither counts nor logs that request afterwards: the next test starts from the reset state', async () => {
    const api = createMockApi({ faults: { latencyMs: 20 }, limits: { perMinute: 1 } });
    const get = (path: string) =>
      api.fetch(`${MOCK_BASE_URL}${path}`, { headers: { authorization: `Bearer ${MOCK_API_KEY}` } });
    const before = get('/journals/1');
    api.reset();
    expect((await get('/subjects')).status).toBe(200);
    expect((await before).status).toBe(200);
    expect(api.requests.map((record) => record.path)).toEqual(['/api/v1/subjects']);
  });
});

describe('MOCK_MAX_SIZES', () => {
  it('is frozen, as the other exported lists are', () => {
    expect(Object.isFrozen(MOCK_MAX_SIZES)).toBe(true);
  });
});

describe('the mock command line', () => {
  it('takes any safe integer as --seed, negative too, and refuses the rest', () => {
    const seeded = (seed: string) =>
      serverOptions({ port: '0', host: '127.0.0.1', 'no-control': false, help: false, seed } as Values).seed;
    expect(seeded('-1')).toBe(-1);
    expect(seeded(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => seeded('9007199254740993')).toThrow(/--seed expects an integer from/);
    expect(() => seeded('1.5')).toThrow(/--seed expects an integer from/);
  });
});

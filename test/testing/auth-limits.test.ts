import { describe, expect, it } from 'vitest';
import {
  MOCK_API_KEY,
  MOCK_BASE_URL,
  MOCK_ELITE_API_KEY,
  MOCK_KEYS,
  MOCK_NO_ACCESS_API_KEY,
} from '../../src/testing/index.js';
import { UNKNOWN_KEY } from '../support.js';
import { get, smallApi } from './helpers.js';

describe('authentication (API §5)', () => {
  const api = smallApi();

  it('accepts Professional and Elite keys', async () => {
    expect((await get(api, '/subjects', MOCK_API_KEY)).status).toBe(200);
    expect((await get(api, '/subjects', MOCK_ELITE_API_KEY)).status).toBe(200);
    expect(MOCK_KEYS[MOCK_API_KEY]).toBe('professional');
  });

  it('gives 401 with a Bearer challenge for a missing, malformed or unknown key', async () => {
    for (const [name, headers] of [
      ['missing', {}],
      ['not bearer', { authorization: `Basic ${MOCK_API_KEY}` }],
      ['empty', { authorization: 'Bearer ' }],
      ['unknown', { authorization: `Bearer ${UNKNOWN_KEY}` }],
    ] as const) {
      const response = await api.handle(new Request(`${MOCK_BASE_URL}/subjects`, { headers }));
      expect(response.status, name).toBe(401);
      expect(response.headers.get('www-authenticate'), name).toMatch(/^Bearer/);
      const body = (await response.json()) as { error: string; message: string };
      expect(body.error).toBe('unauthorized');
      expect(body.message).not.toContain(UNKNOWN_KEY);
    }
  });

  it('accepts the scheme in any case', async () => {
    const response = await api.handle(
      new Request(`${MOCK_BASE_URL}/subjects`, { headers: { authorization: `bearer ${MOCK_API_KEY}` } }),
    );
    expect(response.status).toBe(200);
  });

  it('gives 403 for a valid key on a plan without API access', async () => {
    const answer = await get(api, '/subjects', MOCK_NO_ACCESS_API_KEY);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ error: 'forbidden', message: expect.stringContaining('basic plan') });
  });

  it('checks the key before the path, so unknown endpoints also need one', async () => {
    expect((await get(api, '/nowhere', null)).status).toBe(401);
  });

  it('lets tests add, move and revoke keys, and reset() restores them', async () => {
    const custom = smallApi({ keys: { 'my-key': 'elite', 'free-key': 'free' } });
    expect((await get(custom, '/subjects', 'my-key')).status).toBe(200);
    expect((await get(custom, '/subjects', 'free-key')).status).toBe(403);
    custom.keys.delete(MOCK_API_KEY); // "regenerated in the dashboard"
    expect((await get(custom, '/subjects', MOCK_API_KEY)).status).toBe(401);
    custom.keys.set('my-key', 'basic');
    expect((await get(custom, '/subjects', 'my-key')).status).toBe(403);
    custom.reset();
    expect((await get(custom, '/subjects', MOCK_API_KEY)).status).toBe(200);
    expect((await get(custom, '/subjects', 'my-key')).status).toBe(200);
  });

  it('allows only GET (and HEAD) on the API: 405 with Allow', async () => {
    const response = await api.handle(
      new Request(`${MOCK_BASE_URL}/journals`, {
        method: 'POST',
        headers: { authorization: `Bearer ${MOCK_API_KEY}` },
      }),
    );
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const head = await api.handle(
      new Request(`${MOCK_BASE_URL}/journals`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${MOCK_API_KEY}` },
      }),
    );
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('answers HEAD without a body when it refuses or a fault answers, as HTTP and the mock server do', async () => {
    const headers = { authorization: `Bearer ${MOCK_API_KEY}` };
    const head = (path: string) =>
      api.handle(new Request(`${MOCK_BASE_URL}${path}`, { method: 'HEAD', headers }));
    const refused = [await head('/journals/abc'), await head('/journals/999999')];
    api.faults
      .next({ status: 503 })
      .next({ status: 500, body: { oops: true } })
      .next({ malformed: true });
    const answers = [...refused, await head('/subjects'), await head('/subjects'), await head('/subjects')];
    expect(answers.map((answer) => answer.status)).toEqual([400, 404, 503, 500, 200]);
    for (const answer of answers) expect(await answer.text()).toBe('');
    expect(answers[0]!.headers.get('content-type')).toContain('application/json');
  });
});

describe('rate limits (API §8)', () => {
  const start = Date.parse('2025-03-01T12:00:15Z');

  it('gives 429 with Retry-After past the per-minute limit, until the next minute', async () => {
    let now = start;
    const api = smallApi({ limits: { perMinute: 3 }, now: () => now });
    for (let i = 0; i < 3; i++) expect((await get(api, '/subjects')).status).toBe(200);
    const limited = await get(api, '/subjects');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('45');
    expect(limited.body).toEqual({ error: 'rate_limited', message: expect.stringContaining('Per-minute') });
    now += 44_000;
    expect(limited.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect((await get(api, '/subjects')).headers.get('retry-after')).toBe('1');
    now += 1_000;
    expect((await get(api, '/subjects')).status).toBe(200);
  });

  it('counts per key, and does not count refused requests', async () => {
    const now = start;
    const api = smallApi({ limits: { perMinute: 1 }, now: () => now });
    expect((await get(api, '/subjects', MOCK_API_KEY)).status).toBe(200);
    expect((await get(api, '/subjects', MOCK_API_KEY)).status).toBe(429);
    expect((await get(api, '/subjects', MOCK_ELITE_API_KEY)).status).toBe(200);
    expect((await get(api, '/subjects', 'bogus')).status).toBe(401);
    expect((await get(api, '/subjects', MOCK_NO_ACCESS_API_KEY)).status).toBe(403);
  });

  it('applies the daily limit per UTC day, with Retry-After until midnight', async () => {
    let now = Date.parse('2025-03-01T23:00:00Z');
    const api = smallApi({ limits: { perDay: 2, perMinute: 100 }, now: () => now });
    await get(api, '/subjects');
    now += 120_000;
    await get(api, '/subjects');
    now += 120_000;
    const limited = await get(api, '/subjects');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ message: expect.stringContaining('Daily') });
    expect(Number(limited.headers.get('retry-after'))).toBe(60 * 60 - 240);
    now = Date.parse('2025-03-02T00:00:00Z');
    expect((await get(api, '/subjects')).status).toBe(200);
  });

  it('has no limits unless asked, and reset() clears the counts', async () => {
    const unlimited = smallApi();
    for (let i = 0; i < 200; i++) expect((await get(unlimited, '/subjects')).status).toBe(200);
    const limited = smallApi({ limits: { perMinute: 1 }, now: () => start });
    await get(limited, '/subjects');
    expect((await get(limited, '/subjects')).status).toBe(429);
    limited.reset();
    expect((await get(limited, '/subjects')).status).toBe(200);
  });

  it('refuses nonsense limits', () => {
    expect(() => smallApi({ limits: { perMinute: -1 } })).toThrow(/perMinute/);
    expect(() => smallApi({ limits: { perDay: 1.5 } })).toThrow(/perDay/);
  });
});

describe('the request log', () => {
  it('records method, path with query and status, and reset() empties it', async () => {
    const api = smallApi();
    await get(api, '/papers?q=x&page=2');
    await get(api, '/journals/999999');
    expect(api.requests).toEqual([
      { method: 'GET', path: '/api/v1/papers?q=x&page=2', status: 200, requestId: 'req_000001' },
      { method: 'GET', path: '/api/v1/journals/999999', status: 404, requestId: 'req_000002' },
    ]);
    api.reset();
    expect(api.requests).toEqual([]);
  });
});

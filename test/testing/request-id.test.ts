import { describe, expect, it } from 'vitest';
import {
  MOCK_API_KEY,
  MOCK_BASE_URL,
  MOCK_ELITE_API_KEY,
  MOCK_NO_ACCESS_API_KEY,
  startMockServer,
} from '../../src/testing/index.js';
import { get, smallApi, smallSizes } from './helpers.js';

const auth = { authorization: `Bearer ${MOCK_API_KEY}` };
const idFormat = /^req_\d{6,}$/;

describe('X-Request-Id', () => {
  it('names every API answer, success and error alike, and the request record says the same', async () => {
    // Both keys may send two requests: the Professional key meets its limit, the Elite key (counted
    // apart) gets the 400 and the 404.
    const now = Date.parse('2025-03-01T12:00:15Z');
    const api = smallApi({ limits: { perWindow: { requests: 2, windowMs: 1_000 } }, now: () => now });
    const answers = [
      await get(api, '/subjects'),
      await get(api, '/subjects'),
      await get(api, '/subjects'),
      await get(api, '/subjects', null),
      await get(api, '/subjects', MOCK_NO_ACCESS_API_KEY),
      await get(api, '/papers?bogus=1', MOCK_ELITE_API_KEY),
      await get(api, '/journals/999999', MOCK_ELITE_API_KEY),
    ];
    const expected = [200, 200, 429, 401, 403, 400, 404];
    expect(answers.map((a) => a.status)).toEqual(expected);
    const ids = answers.map((a) => a.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(idFormat);
    expect(new Set(ids).size).toBe(ids.length);
    expect(api.requests.map((r) => r.requestId)).toEqual(ids);
    expect(api.requests.map((r) => r.status)).toEqual(expected);
  });

  it('names answers to injected faults, truncated bodies and HEAD too', async () => {
    const api = smallApi();
    api.faults
      .next({ status: 503 })
      .next({ status: 500, body: { oops: true } })
      .next({ malformed: true })
      .next({ delayMs: 1 });
    const answers = [
      await get(api, '/subjects'),
      await get(api, '/subjects'),
      await get(api, '/subjects'),
      await get(api, '/subjects'),
    ];
    expect(answers.map((a) => a.status)).toEqual([503, 500, 200, 200]);
    const head = await api.handle(
      new Request(`${MOCK_BASE_URL}/subjects`, { method: 'HEAD', headers: auth }),
    );
    const ids = [...answers.map((a) => a.headers.get('x-request-id')), head.headers.get('x-request-id')];
    expect(ids).toEqual(['req_000001', 'req_000002', 'req_000003', 'req_000004', 'req_000005']);
    expect(api.requests.map((r) => r.requestId)).toEqual(ids);
  });

  it('records the id of a request whose connection a reset fault drops, though none is sent', async () => {
    const api = smallApi();
    api.faults.next({ reset: true });
    const dropped = await api.handle(new Request(`${MOCK_BASE_URL}/subjects`, { headers: auth }));
    expect(dropped.type).toBe('error');
    const next = await get(api, '/subjects');
    expect(api.requests).toEqual([
      { method: 'GET', path: '/api/v1/subjects', status: 0, requestId: 'req_000001' },
      { method: 'GET', path: '/api/v1/subjects', status: 200, requestId: 'req_000002' },
    ]);
    expect(next.headers.get('x-request-id')).toBe('req_000002');
  });

  it("keeps a fault's own x-request-id, so a client's handling of a given id can be tested", async () => {
    const api = smallApi();
    api.faults.next({ status: 502, headers: { 'x-request-id': 'gw-7f3a' } });
    const answer = await get(api, '/subjects');
    expect(answer.headers.get('x-request-id')).toBe('gw-7f3a');
    expect(api.requests[0]?.requestId).toBe('gw-7f3a');
  });

  it('names preflights and control calls, which are not in the request log', async () => {
    const api = smallApi({ control: true });
    const preflight = await api.handle(new Request(`${MOCK_BASE_URL}/subjects`, { method: 'OPTIONS' }));
    const control = await api.handle(new Request(`${new URL(MOCK_BASE_URL).origin}/__mock/webhooks`));
    expect(preflight.headers.get('x-request-id')).toBe('req_000001');
    expect(control.headers.get('x-request-id')).toBe('req_000002');
    expect(api.requests).toEqual([]);
  });

  it('gives the same sequence in every fresh mock, and never repeats an id after reset()', async () => {
    const first = smallApi();
    const second = smallApi();
    const a = await get(first, '/subjects');
    const b = await get(second, '/subjects');
    expect(a.headers.get('x-request-id')).toBe(b.headers.get('x-request-id'));
    first.reset();
    const after = await get(first, '/subjects');
    expect(after.headers.get('x-request-id')).toBe('req_000002');
    expect(first.requests.map((r) => r.requestId)).toEqual(['req_000002']);
  });

  it('reaches a client over real sockets, readable by a page on another origin', async () => {
    const server = await startMockServer({ sizes: smallSizes });
    try {
      const response = await fetch(`${server.url}/journals/1`, {
        headers: { ...auth, origin: 'http://localhost:5173' },
      });
      expect(response.status).toBe(200);
      const id = response.headers.get('x-request-id');
      expect(id).toMatch(idFormat);
      expect(response.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
      expect(server.api.requests.at(-1)?.requestId).toBe(id);
    } finally {
      await server.close();
    }
  });
});

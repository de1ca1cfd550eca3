import { describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/core/errors.js';
import { MOCK_API_KEY, MOCK_BASE_URL } from '../../src/testing/index.js';
import { get, smallApi } from './helpers.js';

const auth = { authorization: `Bearer ${MOCK_API_KEY}` };

describe('queued faults', () => {
  it('answers the next requests with the status, then recovers', async () => {
    const api = smallApi();
    api.faults.next({ status: 503, times: 2 });
    expect(api.faults.pending).toBe(2);
    const first = await get(api, '/subjects');
    expect(first.status).toBe(503);
    expect(first.body).toEqual({ error: 'service_unavailable', message: 'Injected fault: status 503' });
    expect((await get(api, '/subjects')).status).toBe(503);
    expect((await get(api, '/subjects')).status).toBe(200);
    expect(api.faults.pending).toBe(0);
  });

  it('runs queued faults in order, with custom bodies and headers', async () => {
    const api = smallApi();
    api.faults
      .next({ status: 429, headers: { 'retry-after': '7' } })
      .next({ status: 500, body: { oops: true } });
    const limited = await get(api, '/subjects');
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '7']);
    expect(await get(api, '/subjects')).toMatchObject({ status: 500, body: { oops: true } });
  });

  it('a reset is Response.error() from the core, and a failed fetch from api.fetch', async () => {
    const api = smallApi();
    api.faults.next({ reset: true, times: 2 });
    const response = await api.handle(new Request(`${MOCK_BASE_URL}/subjects`, { headers: auth }));
    expect(response.type).toBe('error');
    await expect(api.fetch(`${MOCK_BASE_URL}/subjects`, { headers: auth })).rejects.toThrow(TypeError);
    expect(api.requests.map((r) => r.status)).toEqual([0, 0]);
  });

  it('malformed: truncated JSON that does not parse, with the real status', async () => {
    const api = smallApi();
    api.faults.next({ malformed: true });
    const answer = await get(api, '/journals/1');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(() => JSON.parse(answer.text)).toThrow(SyntaxError);
    expect(answer.text.length).toBeGreaterThan(0);
  });

  it("malformed 'shape': valid JSON whose numbers became strings", async () => {
    const api = smallApi();
    api.faults.next({ malformed: 'shape' });
    const answer = await get(api, '/journals/1');
    expect(answer.body).toMatchObject({ id: '1', name: api.dataset.journal(1)!.name });
  });

  it('delays an answer, and a client abort ends the wait at once', async () => {
    const api = smallApi();
    api.faults.next({ delayMs: 60 });
    const started = performance.now();
    expect((await get(api, '/subjects')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);

    api.faults.next({ delayMs: 60_000 });
    const controller = new AbortController();
    const pending = api.handle(
      new Request(`${MOCK_BASE_URL}/subjects`, { headers: auth, signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 10);
    expect((await pending).type).toBe('error');
  });

  it('api.fetch rejects with the abort reason as fetch does, never with a reset or an answer', async () => {
    const api = smallApi();
    const reason = new Error('the page was left');
    await expect(
      api.fetch(`${MOCK_BASE_URL}/subjects`, { headers: auth, signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
    // An aborted request is never sent, so the mock neither answers nor logs it.
    expect(api.requests).toEqual([]);

    api.faults.next({ delayMs: 60_000 });
    const controller = new AbortController();
    const pending = api.fetch(`${MOCK_BASE_URL}/subjects`, { headers: auth, signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
  it('clear() drops the queue; faults never touch preflights', async () => {
    const api = smallApi();
    api.faults.next({ status: 500 });
    const preflight = await api.handle(new Request(`${MOCK_BASE_URL}/subjects`, { method: 'OPTIONS' }));
    expect(preflight.status).toBe(204);
    expect(api.faults.pending).toBe(1);
    api.faults.clear();
    expect((await get(api, '/subjects')).status).toBe(200);
  });

  it('a request outside the API (a health probe, a favicon) leaves queued faults for the API', async () => {
    const api = smallApi({ faults: { errorRate: 1 } });
    api.faults.next({ status: 503 });
    const origin = new URL(MOCK_BASE_URL).origin;
    for (const path of ['/', '/favicon.ico', '/health']) {
      const outside = await api.handle(new Request(`${origin}${path}`, { headers: auth }));
      expect(outside.status).toBe(404);
    }
    expect(api.faults.pending).toBe(1);
    expect((await get(api, '/subjects')).status).toBe(503);
    expect((await get(api, '/subjects')).status).toBe(500); // the random fault, not drawn before
  });

  it('plays a status that carries no body (204, 205, 304) with none, through next() and errorStatus', async () => {
    const api = smallApi();
    for (const status of [204, 205, 304]) {
      api.faults.next({ status });
      const answer = await get(api, '/subjects');
      expect([answer.status, answer.text]).toEqual([status, '']);
    }
    api.faults.configure({ errorRate: 1, errorStatus: 204 });
    expect((await get(api, '/subjects')).status).toBe(204);
  });

  it('refuses faults it cannot play', () => {
    const api = smallApi();
    expect(() => api.faults.next({ status: 700 })).toThrow(ConfigurationError);
    expect(() => api.faults.next({ status: 503, times: 0 })).toThrow(/times/);
    expect(() => api.faults.next({ delayMs: -5 })).toThrow(/delayMs/);
  });
});

describe('random faults', () => {
  const statuses = async (seed: number): Promise<number[]> => {
    const api = smallApi({ faults: { errorRate: 0.3, resetRate: 0.1, seed } });
    const out: number[] = [];
    for (let i = 0; i < 60; i++) {
      const response = await api.handle(new Request(`${MOCK_BASE_URL}/subjects`, { headers: auth }));
      out.push(response.type === 'error' ? 0 : response.status);
    }
    return out;
  };

  it('follow the configured rates, reproducibly from the seed', async () => {
    const a = await statuses(7);
    expect(await statuses(7)).toEqual(a);
    expect(await statuses(8)).not.toEqual(a);
    const errors = a.filter((s) => s === 500).length;
    const resets = a.filter((s) => s === 0).length;
    expect(errors).toBeGreaterThan(5);
    expect(errors).toBeLessThan(35);
    expect(resets).toBeGreaterThan(0);
    expect(a.filter((s) => s === 200).length).toBeGreaterThan(20);
  });

  it('malformedRate 1 breaks every body; errorStatus picks the status', async () => {
    const broken = smallApi({ faults: { malformedRate: 1 } });
    const { text } = await get(broken, '/subjects');
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    const failing = smallApi({ faults: { errorRate: 1, errorStatus: 502 } });
    expect((await get(failing, '/subjects')).body).toMatchObject({ error: 'bad_gateway' });
  });

  it('latencyMs delays every answer; configure() changes the settings at run time', async () => {
    const api = smallApi({ faults: { latencyMs: [300, 320] } });
    const started = performance.now();
    await get(api, '/subjects');
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
    api.faults.configure({});
    // With the latency gone, the answer comes without any timer firing: the clock is held still.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let answered = false;
      const pending = get(api, '/subjects').then(() => {
        answered = true;
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(answered).toBe(true);
      await pending;
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses rates outside [0, 1] or adding up past 1', () => {
    expect(() => smallApi({ faults: { errorRate: 1.5 } })).toThrow(/errorRate/);
    expect(() => smallApi({ faults: { errorRate: 0.6, resetRate: 0.6 } })).toThrow(/exceed/);
    expect(() => smallApi({ faults: { latencyMs: [50, 10] } })).toThrow(/latencyMs/);
  });
});

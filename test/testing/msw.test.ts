import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MOCK_API_KEY, MOCK_BASE_URL, MOCK_DOIS, mockHandlers } from '../../src/testing/index.js';
import { smallApi } from './helpers.js';

const api = smallApi();
const server = setupServer(...mockHandlers(api));
const auth = { authorization: `Bearer ${MOCK_API_KEY}` };

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => api.reset());
afterAll(() => server.close());

describe('msw handlers', () => {
  it('serve the API at MOCK_BASE_URL to the global fetch', async () => {
    const response = await fetch(`${MOCK_BASE_URL}/journals/1`, { headers: auth });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 1, name: api.dataset.journal(1)!.name });
  });

  it('carry encoded DOIs through unchanged', async () => {
    for (const doi of MOCK_DOIS) {
      const response = await fetch(`${MOCK_BASE_URL}/papers/${encodeURIComponent(doi)}`, { headers: auth });
      expect(((await response.json()) as { doi: string }).doi).toBe(doi);
    }
  });

  it('pass errors through with their status and body', async () => {
    const response = await fetch(`${MOCK_BASE_URL}/journals/1`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'unauthorized' });
  });

  it('turn a reset fault into a network error', async () => {
    api.faults.next({ reset: true });
    await expect(fetch(`${MOCK_BASE_URL}/subjects`, { headers: auth })).rejects.toThrow(TypeError);
    expect((await fetch(`${MOCK_BASE_URL}/subjects`, { headers: auth })).status).toBe(200);
  });

  it('share state with the api they were made from', async () => {
    const { event } = await api.updateScore(3, api.dataset.journal(3)!.metric_score + 1);
    const response = await fetch(`${MOCK_BASE_URL}/journals/3/score`, { headers: auth });
    expect(((await response.json()) as { current: number }).current).toBe(event.new_score);
  });

  it('leave other hosts alone, so onUnhandledFrame still catches stray requests', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await expect(fetch('https://elsewhere.test/api/v1/journals')).rejects.toThrow();
      expect(String(printed.mock.calls[0]?.[0])).toContain('without a matching request handler');
    } finally {
      printed.mockRestore();
    }
  });
});

describe('msw handlers: the base URL and what lies under it, nothing beside it', () => {
  it('the base URL itself, with a query or without: the JSON 404 api.fetch gives', async () => {
    for (const url of [MOCK_BASE_URL, `${MOCK_BASE_URL}?x=1`]) {
      const [viaMsw, viaFetch] = await Promise.all([
        fetch(url, { headers: auth }),
        api.fetch(url, { headers: auth }),
      ]);
      expect(viaMsw.status, url).toBe(404);
      expect(viaMsw.headers.get('access-control-allow-origin'), url).toBe('*');
      expect({ status: viaMsw.status, body: await viaMsw.json() }, url).toEqual({
        status: viaFetch.status,
        body: await viaFetch.json(),
      });
    }
  });

  it('match a base URL that spells its default port, as a request URL never does', async () => {
    for (const origin of ['http://localhost:80', 'https://localhost:443']) {
      const handlers = mockHandlers({ baseUrl: `${origin}/api/v1`, sizes: { journals: 3 } });
      const plain = origin.replace(/:\d+$/, '');
      const response = await getResponse(
        handlers,
        new Request(`${plain}/api/v1/journals`, { headers: auth }),
      );
      expect(response?.status, origin).toBe(200);
    }
  });

  it("leave the rest of the origin to msw: an app's own paths beside the API still reach the app", async () => {
    const handlers = mockHandlers({ baseUrl: 'http://localhost:5173/api/v1', sizes: { journals: 3 } });
    const at = (path: string) =>
      getResponse(handlers, new Request(`http://localhost:5173${path}`, { headers: auth }));
    expect((await at('/api/v1/journals'))?.status).toBe(200);
    expect((await at('/api/v1'))?.status).toBe(404);
    for (const path of ['/', '/src/main.tsx', '/api/v2/journals', '/api/v10'])
      expect(await at(path), path).toBeUndefined();
  });
});

describe('mockHandlers(options)', () => {
  it('builds its own mock, at a custom base URL', async () => {
    const handlers = mockHandlers({
      baseUrl: 'http://localhost:9999/proxy/api/v1',
      sizes: { journals: 3, papers: 10, authors: 5, subjects: 2, countries: 3 },
    });
    const response = await getResponse(
      handlers,
      new Request('http://localhost:9999/proxy/api/v1/journals', { headers: auth }),
    );
    expect(response?.status).toBe(200);
    expect(await response?.json()).toHaveLength(3);
    const outside = await getResponse(handlers, new Request(`${MOCK_BASE_URL}/journals`, { headers: auth }));
    expect(outside).toBeUndefined();
  });
});

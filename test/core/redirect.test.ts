import { afterEach, describe, expect, it } from 'vitest';
import { fetchFollowingSameOrigin } from '../../src/core/redirect.js';
import { MetricError } from '../../src/index.js';
import { TEST_KEY } from '../support.js';

/** A fetch answering from a table of URL → response, recording what it was asked. */
function table(answers: Record<string, () => Response>) {
  const asked: Array<{ url: string; redirect: RequestRedirect | undefined; key: string | null }> = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input as Request;
    asked.push({ url: request.url, redirect: init?.redirect, key: request.headers.get('x-api-key') });
    const answer = answers[request.url];
    if (!answer) throw new Error(`unexpected ${request.url}`);
    return answer();
  }) as typeof globalThis.fetch;
  return { fetch, asked };
}

const moved = (status: number, location: string) => () =>
  new Response(null, { status, headers: { location } });

describe('fetchFollowingSameOrigin', () => {
  afterEach(() => {
    delete (globalThis as { document?: unknown }).document;
  });

  it('follows a relative redirect within the origin itself, headers kept, manual mode each time', async () => {
    const { fetch, asked } = table({
      'https://api.test/api/v1/a': moved(308, '/api/v1/b'),
      'https://api.test/api/v1/b': () => new Response('ok'),
    });
    const request = new Request('https://api.test/api/v1/a', { headers: { 'x-api-key': 'k' } });
    const response = await fetchFollowingSameOrigin(fetch, TEST_KEY)(request);
    expect(await response.text()).toBe('ok');
    expect(asked).toEqual([
      { url: 'https://api.test/api/v1/a', redirect: 'manual', key: 'k' },
      { url: 'https://api.test/api/v1/b', redirect: 'manual', key: 'k' },
    ]);
  });

  it('refuses another origin (another port is another origin), naming both, never the key', async () => {
    const { fetch, asked } = table({
      'https://api.test/api/v1/a': moved(302, `https://api.test:8443/${TEST_KEY}`),
    });
    const error = await fetchFollowingSameOrigin(
      fetch,
      TEST_KEY,
    )(new Request('https://api.test/api/v1/a')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MetricError);
    expect((error as Error).message).toMatch(
      /^Refused a 302 redirect from https:\/\/api\.test to another origin, https:\/\/api\.test:8443/,
    );
    expect((error as Error).message).not.toContain(TEST_KEY);
    expect(asked).toHaveLength(1);
  });

  it('a Location within the origin that carries user:password@ is handed back as the answer, not followed', async () => {
    const { fetch, asked } = table({
      'https://api.test/api/v1/a': moved(302, 'https://admin:hunter2@api.test/api/v1/b'),
    });
    const response = await fetchFollowingSameOrigin(
      fetch,
      TEST_KEY,
    )(new Request('https://api.test/api/v1/a'));
    expect(response.status).toBe(302);
    expect(asked).toHaveLength(1);
  });

  it('a 3xx without Location is handed back as the answer', async () => {
    const { fetch } = table({ 'https://api.test/a': () => new Response(null, { status: 301 }) });
    const response = await fetchFollowingSameOrigin(fetch, TEST_KEY)(new Request('https://api.test/a'));
    expect(response.status).toBe(301);
  });

  it('a 3xx whose Location is no URL is handed back as the answer, its body unread', async () => {
    const { fetch, asked } = table({
      'https://api.test/a': () =>
        new Response('moved, badly', { status: 302, headers: { location: 'http://[bad-host/x' } }),
    });
    const response = await fetchFollowingSameOrigin(fetch, TEST_KEY)(new Request('https://api.test/a'));
    expect(response.status).toBe(302);
    expect(await response.text()).toBe('moved, badly');
    expect(asked).toHaveLength(1);
  });

  it('in a worker whose fetch shows the redirect (workerd), takes it in hand as anywhere', async () => {
    (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope = class {};
    try {
      const { fetch, asked } = table({
        'https://api.test/a': moved(307, 'https://elsewhere.test/a'),
      });
      const error = await fetchFollowingSameOrigin(
        fetch,
        TEST_KEY,
      )(new Request('https://api.test/a')).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MetricError);
      expect(asked.map((a) => a.redirect)).toEqual(['manual']);
    } finally {
      delete (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope;
    }
  });

  it("in a browser's worker (an opaque answer to manual), sends again for the browser to follow", async () => {
    const opaque = () =>
      Object.defineProperties(new Response(null), {
        type: { value: 'opaqueredirect' },
        status: { value: 0 },
      });
    let calls = 0;
    const fetch = (async (_input: RequestInfo | URL, init?: RequestInit) =>
      calls++ === 0 && init?.redirect === 'manual'
        ? opaque()
        : new Response('followed')) as typeof globalThis.fetch;
    const response = await fetchFollowingSameOrigin(fetch, TEST_KEY)(new Request('https://api.test/a'));
    expect(await response.text()).toBe('followed');
    expect(calls).toBe(2);
  });

  it('in a browser, leaves redirects to the browser', async () => {
    (globalThis as { document?: unknown }).document = {};
    const { fetch, asked } = table({ 'https://api.test/a': () => new Response('ok') });
    await fetchFollowingSameOrigin(fetch, TEST_KEY)(new Request('https://api.test/a'));
    expect(asked[0]!.redirect).toBeUndefined();
  });
});

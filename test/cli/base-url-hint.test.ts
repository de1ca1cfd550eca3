/**
 * The hint of a 404 from a base URL off the API's path: the URL with `/api/v1` in place of the
 * `/api` or `/api/vN` the path ends with, never `/api/api/v1` or `/api/v2/api/v1`.
 */
import { describe, expect, it } from 'vitest';
import { apiPathHint } from '../../src/cli/report.js';
import { useMockServer } from '../support.js';
import { run } from './helpers.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 20, authors: 5 } });

const hint = (url: string) => `hint: the API lives under /api/v1: try --base-url ${url}\n`;

describe('the /api/v1 hint of a base URL off the API', () => {
  it.each(['/api', '/api/', '/api/v2', '/api/v2/', '/api/v12//'])(
    '--base-url ROOT%s: the hint is ROOT/api/v1',
    async (path) => {
      const root = mock.server.url.replace(/\/api\/v1$/, '');
      const result = await run(['journals', 'get', '4', '--base-url', `${root}${path}`], {
        url: mock.server.url,
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(hint(`${root}/api/v1`));
    },
  );

  it('replaces a last /api or /api/vN segment, a whole one alone', () => {
    const suggested = {
      'https://host.example/api': 'https://host.example/api/v1',
      'https://host.example/api/v2': 'https://host.example/api/v1',
      'https://host.example/gateway/api/v3/': 'https://host.example/gateway/api/v1',
      'https://host.example/gateway': 'https://host.example/gateway/api/v1',
      // `/apis` and `/api/v2beta` are paths of their own, not the API's.
      'https://host.example/apis': 'https://host.example/apis/api/v1',
      'https://host.example/api/v2beta': 'https://host.example/api/v2beta/api/v1',
    };
    for (const [baseUrl, url] of Object.entries(suggested))
      expect(apiPathHint(baseUrl), baseUrl).toBe(`the API lives under /api/v1: try --base-url ${url}`);
  });

  it('a base URL under /api/v1, trailing slashes or not, gets no hint', () => {
    for (const path of ['/api/v1', '/api/v1/', '/api/v1//', '/gateway/api/v1'])
      expect(apiPathHint(`https://host.example${path}`)).toBeUndefined();
  });
});

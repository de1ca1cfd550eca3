import { describe, expect, it } from 'vitest';
import { MOCK_BASE_URL } from '../../src/testing/index.js';
import { get, smallApi } from './helpers.js';

describe('CORS', () => {
  const api = smallApi();

  it('answers a preflight with 204, no key needed, allowing the requested headers', async () => {
    const response = await api.handle(
      new Request(`${MOCK_BASE_URL}/papers?q=x`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization,x-stainless-retry-count,user-agent',
        },
      }),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('GET');
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'authorization,x-stainless-retry-count,user-agent',
    );
    expect(response.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    expect(api.requests).toHaveLength(0);
  });

  it('allows Authorization even when the preflight names no headers', async () => {
    const response = await api.handle(new Request(`${MOCK_BASE_URL}/journals`, { method: 'OPTIONS' }));
    expect(response.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
  });

  it('marks every answer, errors included, readable from any origin, with Retry-After and X-Request-Id exposed', async () => {
    for (const [path, key] of [
      ['/subjects', undefined],
      ['/journals/999999', undefined],
      ['/subjects', null],
    ] as const) {
      const answer = await get(api, path, key);
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(answer.headers.get('access-control-expose-headers')).toContain('Retry-After');
      expect(answer.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    }
  });
});

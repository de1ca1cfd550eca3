// What the command line says when a proxy (recipe 1 of docs/proxies.md) is in the way: the errors are
// Node's own words for each case, seen through Debian's squid; the hint names the proxy, never its password.
import { describe, expect, it } from 'vitest';
import { describeError } from '../../src/cli/report.js';
import { ConnectionError, TimeoutError } from '../../src/core/errors.js';

const baseUrl = 'http://127.0.0.1:31300/api/v1';
const failed = (reason: string) =>
  new ConnectionError(`GET ${baseUrl}/journals/1 failed: fetch failed: ${reason}`);
const tunnel = (status: number) =>
  failed(`Request was cancelled.: Proxy response (${status}) !== 200 when HTTP Tunneling (UND_ERR_ABORTED)`);

function hint(error: unknown, env: Record<string, string>, url = baseUrl): string {
  const report = describeError(error, { debug: false, baseUrl: url, env });
  return /^hint: (.*)$/m.exec(report)?.[1] ?? '';
}

describe('hints for a request that a proxy stopped', () => {
  const on = { NODE_USE_ENV_PROXY: '1' };

  it('407 without credentials: names the proxy and the variable to put them in', () => {
    expect(hint(tunnel(407), { ...on, HTTP_PROXY: 'http://127.0.0.1:3128' })).toBe(
      'the proxy http://127.0.0.1:3128 (HTTP_PROXY) asks for a user and password (407): set HTTP_PROXY=http://user:password@host:port',
    );
  });

  it('407 with credentials: says they were refused, without the user or the password', () => {
    const said = hint(tunnel(407), { ...on, HTTP_PROXY: 'http://alice:s3cret-PW@127.0.0.1:3128' });
    expect(said).toBe(
      'the proxy http://127.0.0.1:3128 (HTTP_PROXY) refused its user and password (407): check them in HTTP_PROXY',
    );
    expect(said).not.toMatch(/alice|s3cret/);
  });

  it("undici's ProxyAgent's 407 reads the same", () => {
    const error = failed('Proxy Authentication Required (407) (UND_ERR_INVALID_ARG)');
    expect(hint(error, { ...on, http_proxy: 'http://127.0.0.1:3128' })).toContain(
      'the proxy http://127.0.0.1:3128 (http_proxy) asks for a user and password (407)',
    );
  });

  it('a refused tunnel (403: CONNECT to port 443 only) names the proxy and the host and port', () => {
    expect(hint(tunnel(403), { ...on, HTTP_PROXY: 'http://127.0.0.1:3128' })).toBe(
      'the proxy http://127.0.0.1:3128 (HTTP_PROXY) refused the tunnel to 127.0.0.1:31300 (403): ask its administrator to allow it, or list the host in NO_PROXY if it is reachable directly',
    );
  });

  it.each([502, 503, 504])(
    'a gateway status (%i): the proxy could not reach the API, so the base URL is checked, not the proxy',
    (status) => {
      expect(hint(tunnel(status), { ...on, HTTP_PROXY: 'http://127.0.0.1:3128' })).toBe(
        `the proxy http://127.0.0.1:3128 (HTTP_PROXY) could not reach 127.0.0.1:31300 (${status}): check --base-url or METRIC_BASE_URL (now: ${baseUrl}), and that the server runs`,
      );
    },
  );

  it('a proxy that is down or silent is named beside the base URL', () => {
    const env = { ...on, HTTPS_PROXY: 'http://bob:pw@proxy.corp.example:3128' };
    const url = 'https://api.example/api/v1';
    for (const error of [failed('connect ECONNREFUSED 10.0.0.1:3128'), new TimeoutError('timed out')]) {
      expect(hint(error, env, url)).toBe(
        `check the proxy http://proxy.corp.example:3128 (HTTPS_PROXY), and --base-url or METRIC_BASE_URL (now: ${url})`,
      );
    }
  });

  it('the variable Node reads wins: lower case first, the one for the scheme', () => {
    const env = {
      ...on,
      HTTP_PROXY: 'http://upper:1',
      http_proxy: 'http://lower:2',
      HTTPS_PROXY: 'http://s:3',
    };
    expect(hint(tunnel(403), env)).toContain('the proxy http://lower:2 (http_proxy)');
  });

  it('a host NO_PROXY sends direct gets the base URL hint alone', () => {
    const refused = failed('connect ECONNREFUSED 127.0.0.1:31300');
    for (const NO_PROXY of ['127.0.0.1', '*', 'localhost,127.0.0.1:31300']) {
      expect(hint(refused, { ...on, HTTP_PROXY: 'http://127.0.0.1:3128', NO_PROXY })).toBe(
        `check --base-url or METRIC_BASE_URL (now: ${baseUrl})`,
      );
    }
    expect(hint(refused, { ...on, HTTP_PROXY: 'http://127.0.0.1:3128', NO_PROXY: '127.0.0.1:9' })).toContain(
      'check the proxy',
    );
  });

  it('NO_PROXY matches as undici does: in any case, and a .suffix matches the domain itself', () => {
    const local = 'http://localhost:31300/api/v1';
    const refused = failed('connect ECONNREFUSED 127.0.0.1:31300');
    for (const NO_PROXY of ['LOCALHOST', '.localhost', '*.localhost', 'LocalHost:31300']) {
      expect(hint(refused, { ...on, HTTP_PROXY: 'http://127.0.0.1:3128', NO_PROXY }, local), NO_PROXY).toBe(
        `check --base-url or METRIC_BASE_URL (now: ${local})`,
      );
    }
    // A suffix matches subdomains, never a longer name that merely ends the same way.
    const sub = 'http://api.corp.example:31300/api/v1';
    expect(hint(refused, { ...on, HTTP_PROXY: 'http://p:3128', NO_PROXY: '.corp.example' }, sub)).toBe(
      `check --base-url or METRIC_BASE_URL (now: ${sub})`,
    );
    const other = 'http://notcorp.example:31300/api/v1';
    expect(hint(refused, { ...on, HTTP_PROXY: 'http://p:3128', NO_PROXY: '.corp.example' }, other)).toContain(
      'check the proxy',
    );
  });

  it('HTTPS_PROXY set without NODE_USE_ENV_PROXY=1: says Node ignores it', () => {
    const error = failed('getaddrinfo ENOTFOUND api.example');
    expect(hint(error, { HTTPS_PROXY: 'http://proxy:3128' }, 'https://api.example/api/v1')).toBe(
      'Node ignores HTTPS_PROXY unless started with NODE_USE_ENV_PROXY=1 (Node 22.21 or later): run NODE_USE_ENV_PROXY=1 scholarly-metrics …',
    );
    // On loopback (the mock server) a proxy is not the answer: the base URL is.
    expect(hint(failed('connect ECONNREFUSED'), { HTTP_PROXY: 'http://proxy:3128' })).toBe(
      `check --base-url or METRIC_BASE_URL (now: ${baseUrl})`,
    );
  });
});

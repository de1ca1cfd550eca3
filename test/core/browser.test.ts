import { afterEach, describe, expect, it, vi } from 'vitest';
import { inBrowser } from '../../src/core/browser.js';
import { userAgent } from '../../src/core/user-agent.js';
import { testClient } from '../support.js';

const client = () => testClient({}, { base: 'http://127.0.0.1:9/api/v1' });

describe('the one browser test', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('outside a page: no browser, the SDK names its runtime, an API key is taken', () => {
    expect(inBrowser()).toBe(false);
    expect(userAgent()).toMatch(/^scholarly-metrics\/[\d.]+ \(node\/[\d.]+\)$/);
    expect(client).not.toThrow();
  });

  it('in a page (a document): the User-Agent is left to the browser, an API key refused', () => {
    vi.stubGlobal('document', {});
    expect(inBrowser()).toBe(true);
    expect(userAgent()).toBeUndefined();
    expect(client).toThrow(/dangerouslyAllowBrowser/);
  });

  it("in a page's worker (no document, a browser's User-Agent): the same as in the page", () => {
    vi.stubGlobal('navigator', {
      userAgent:
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36',
    });
    expect(inBrowser()).toBe(true);
    expect(userAgent()).toBeUndefined();
    expect(client).toThrow(/dangerouslyAllowBrowser/);
    expect(() =>
      testClient({ dangerouslyAllowBrowser: true }, { base: 'http://127.0.0.1:9/api/v1' }),
    ).not.toThrow();
  });

  it.each(['Deno/2.5.0', 'Bun/1.3.0', 'Node.js/24', 'Cloudflare-Workers'])(
    'a server runtime naming itself (%s) is no browser: its API key is taken',
    (name) => {
      vi.stubGlobal('navigator', { userAgent: name });
      expect(inBrowser()).toBe(false);
      expect(client).not.toThrow();
    },
  );
});

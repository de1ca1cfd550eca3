import { afterEach, describe, expect, it, vi } from 'vitest';
import { inBrowserPage } from '../../src/core/browser.js';
import { userAgent } from '../../src/core/user-agent.js';
import { testClient } from '../support.js';

const client = () => testClient({}, { base: 'http://127.0.0.1:9/api/v1' });

describe('the one browser test', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('outside a page: no browser, the SDK names its runtime, an API key is taken', () => {
    expect(inBrowserPage()).toBe(false);
    expect(userAgent()).toMatch(/^scholarly-metrics\/[\d.]+ \(node\/[\d.]+\)$/);
    expect(client).not.toThrow();
  });

  it('in a page (a document): the User-Agent is left to the browser, an API key refused', () => {
    vi.stubGlobal('document', {});
    expect(inBrowserPage()).toBe(true);
    expect(userAgent()).toBeUndefined();
    expect(client).toThrow(/dangerouslyAllowBrowser/);
  });
});

/**
 * The hint after a request that got no answer names the base URL as given: shown escaped, so that an
 * escape sequence in --base-url or METRIC_BASE_URL never reaches the terminal.
 */
import { describe, expect, it } from 'vitest';
import { connectionHint } from '../../src/cli/proxy-hint.js';
import { ConnectionError } from '../../src/core/errors.js';
import { TEST_KEY } from '../support.js';
import { run } from './helpers.js';

// Port 1 is one fetch refuses to connect to: each request fails without going to the network.
const hostile = 'http://127.0.0.1:1/api/v1/\u001b]0;PWNED\u0007';
const shown = 'http://127.0.0.1:1/api/v1/\\e]0;PWNED\\x07';

/** Whether `text` holds ESC or BEL, the two characters of `hostile` a terminal acts on. */
const holdsControls = (text: string | undefined) => ['\u001b', '\u0007'].some((char) => text?.includes(char));

describe('the connection hint of a base URL holding control characters', () => {
  it.each([
    ['--base-url', ['--base-url', hostile, 'journals', 'list'], {}],
    ['METRIC_BASE_URL', ['journals', 'list'], { url: hostile }],
  ])('from %s: shows ESC and BEL escaped', async (_from, args, options) => {
    const result = await run(args, { key: TEST_KEY, ...options });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`hint: check --base-url or METRIC_BASE_URL (now: ${shown})`);
    expect(holdsControls(result.stderr)).toBe(false);
  });

  it('behind a proxy, as the hints that name the proxy show it', () => {
    const proxied = { NODE_USE_ENV_PROXY: '1', HTTP_PROXY: 'http://127.0.0.1:3128' };
    const gateway = new ConnectionError('fetch failed: Proxy response (502) !== 200 when HTTP Tunneling');
    for (const error of [gateway, new ConnectionError('fetch failed: connect ECONNREFUSED')]) {
      const hint = connectionHint(error, hostile, proxied);
      expect(hint).toContain(`(now: ${shown})`);
      expect(holdsControls(hint)).toBe(false);
    }
  });
});

// The key found however it is written: cut off, long, escaped, encoded, base64-encoded.
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { redacted, redactText } from '../../src/core/redact.js';
import { type APIError, AuthenticationError } from '../../src/index.js';
import { failure } from '../helpers/calls.js';
import { BASE, journalProfile, json, recordingLogger, TEST_KEY, testClient, useMsw } from '../support.js';
import { expectNoKey, views } from './redact-setup.js';

const server = useMsw();

describe('a cut-off key', () => {
  it('is redacted from its first twelve characters on', () => {
    const long = 'sk_live_0123456789abcdefghijklmnopqrstuvwxyz';
    expect(redactText(`got "${long.slice(0, 30)}…"`, long)).toBe(`got "${redacted}…"`);
    expect(redactText(`${long.slice(0, 11)} stays`, long)).toBe(`${long.slice(0, 11)} stays`);
    expect(redactText(`a ${long} b ${long.slice(0, 20)}`, long)).toBe(`a ${redacted} b ${redacted}`);
  });
});

describe('a long key', () => {
  // Long enough that one expression for it is more than the engine compiles (it threw a SyntaxError).
  const visible = 'sk_live_AbC.d+e/f=g$^*?(x)[y]{z}|\\~!@#%&\'"<>:;,`';
  const key = visible.repeat(Math.ceil(4096 / visible.length)).slice(0, 4096);
  const base64 = (text: string) => Buffer.from(text).toString('base64');

  it.each([
    ['as is', key],
    ['percent-encoded', encodeURIComponent(key)],
    ['JSON-escaped', JSON.stringify(key).slice(1, -1)],
    ['base64 `Bearer <key>`', base64(`Bearer ${key}`)],
  ])('%s: removed whole', (_how, text) => {
    const out = redactText(`before ${text} after`, key);
    // Base64 keeps what encodes `Bearer ` (ten characters) and at most three around the key's own.
    expect(out).toMatch(/^before [A-Za-z0-9+/]{0,11}\[redacted\][A-Za-z0-9+/=]{0,3} after$/);
  });

  it('cut short: removed from its start', () => {
    expect(redactText(`got "${encodeURIComponent(key.slice(0, 3000))}…"`, key)).toBe(`got "${redacted}…"`);
  });

  it('a 401 that echoes it is an AuthenticationError without it', async () => {
    server.use(http.get(`${BASE}/journals`, () => json({ error: `bad key ${key}` }, { status: 401 })));
    const error = await failure(testClient({ apiKey: key }).journals.list());
    expect(error).toBeInstanceOf(AuthenticationError);
    expectNoKey(error, key.slice(0, 40));
  });
});

describe('an escape that could be read two ways, where the key is matched piece by piece', () => {
  // Past the 28th character: beyond the start and across the boundary of the next piece.
  it.each([
    ['a `%25` in the key', `${'a'.repeat(27)}%2541${'b'.repeat(20)}`, (key: string) => key],
    ['a run of backslashes, JSON-escaped', `${'a'.repeat(26)}\\\\\\${'b'.repeat(20)}`, JSON.stringify],
  ])('%s: removed whole', (_how, key, write) => {
    const text = write(key).replace(/^"|"$/g, '');
    expect(redactText(`before ${text} after`, key)).toBe(`before ${redacted} after`);
  });
});

describe('the key however it is written', () => {
  const key = 'sk_live_a/b+c&d"e%f<g>h~i';
  const written: Record<string, string> = {
    'percent, upper case': encodeURIComponent(key),
    'percent, lower case': encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (code) => code.toLowerCase()),
    'percent-encoded twice': encodeURIComponent(encodeURIComponent(key)),
    'form encoding': new URLSearchParams({ k: key }).toString().slice(2),
    'JSON \\/ and \\"': JSON.stringify(key).slice(1, -1).replaceAll('/', '\\/'),
    'JSON \\u escapes': [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    'HTML named entities': key
      .replace('&', '&amp;')
      .replace('"', '&quot;')
      .replace('<', '&lt;')
      .replace('>', '&gt;'),
    'HTML numeric references': [...key].map((c) => `&#${c.charCodeAt(0)};`).join(''),
    'one character encoded past the twelfth': `${key.slice(0, 14)}%${key.charCodeAt(14).toString(16)}${key.slice(15)}`,
    // A JSON-escaped key put into a URL, which percent-encodes the `"` but keeps the backslash, and
    // the same escaped key percent-encoded whole (found by the property test in test/reliability).
    'JSON escape, then a URL query': new URL(`http://h/?k=${JSON.stringify(key).slice(1, -1)}`).search.slice(
      3,
    ),
    'JSON escape, then percent-encoded': encodeURIComponent(JSON.stringify(key).slice(1, -1)),
  };
  for (const [how, text] of Object.entries(written)) {
    it(`${how}: removed, the text around it kept`, () => {
      expect(redactText(`before ${text} after`, key)).toBe(`before ${redacted} after`);
    });
  }

  it('cut short in any encoding, from its twelfth character on', () => {
    const cut = encodeURIComponent(key.slice(0, 13));
    expect(redactText(`key=${cut}…`, key)).toBe(`key=${redacted}…`);
  });

  it('a text that shares fewer than twelve characters with it is left alone', () => {
    expect(redactText('sk_live_a/b is a prefix', key)).toBe('sk_live_a/b is a prefix');
  });
});

describe('the key base64-encoded', () => {
  const base64 = (text: string) => Buffer.from(text).toString('base64');
  // A key whose base64 holds `+` and `/`, which a URL then percent-encodes.
  const key = 'sk_live_~~>>??ab12cd34ef56';
  /**
   * An encoded text with everything that encodes the key gone: what is left before the marker encodes
   * `prefix` (and at most a character of the key), and at most three characters follow it.
   */
  const redactedFrom = (prefix: string) =>
    new RegExp(
      `^before [A-Za-z0-9+/_-]{0,${Math.ceil((prefix.length * 4) / 3) + 1}}\\[redacted\\][A-Za-z0-9+/=_-]{0,3} after$`,
    );
  const forms: Record<string, [prefix: string, encoded: string]> = {
    'the key alone': ['', base64(key)],
    '`Bearer <key>`': ['Bearer ', base64(`Bearer ${key}`)],
    '`Authorization: Bearer <key>`': ['Authorization: Bearer ', base64(`Authorization: Bearer ${key}`)],
    'Basic auth `user:<key>`': ['user:', base64(`user:${key}`)],
    'the URL alphabet, unpadded': ['Bearer ', Buffer.from(`Bearer ${key}`).toString('base64url')],
    'then percent-encoded': ['Bearer ', encodeURIComponent(base64(`Bearer ${key}`))],
  };
  for (const [how, [prefix, encoded]] of Object.entries(forms)) {
    it(`${how}: removed, the text around it kept`, () => {
      expect(base64(key)).toMatch(/[+/]/);
      const out = redactText(`before ${encoded} after`, key);
      expect(out).toMatch(redactedFrom(prefix));
    });
  }

  it('cut short, from its twelfth character on', () => {
    const cut = base64(key).slice(0, 14);
    expect(redactText(`got ${cut}…`, key)).toBe(`got ${redacted}…`);
  });

  it('base64 of other text is left alone', () => {
    const other = base64('Bearer sk_live_somebody_elses_key');
    expect(redactText(`token ${other}`, key)).toBe(`token ${other}`);
  });

  it("in an error body, in a log line and never in the cache's store", async () => {
    const echo = base64(`Bearer ${TEST_KEY}`);
    const core = base64(TEST_KEY).slice(0, 16);
    server.use(
      http.get(`${BASE}/journals/7`, () => json({ message: `you sent ${echo}` }, { status: 401 })),
      http.get(`${BASE}/journals/8`, () => json({ ...journalProfile, id: 8, description: echo })),
      http.get(`${BASE}/journals/9`, () => json({ ...journalProfile, id: 9 })),
    );
    const { lines: logged, logger } = recordingLogger();
    const entries = new Map<string, string>();
    const store = {
      get: (key: string) => entries.get(key),
      set: (key: string, value: string) => entries.set(key, value),
      delete: (key: string) => entries.delete(key),
      clear: () => entries.clear(),
    };
    const traced = testClient({ logger, logLevel: 'debug', cache: { store } });
    const error = (await failure(traced.journals.get(7))) as APIError;
    expect(error).toBeInstanceOf(AuthenticationError);
    for (const text of Object.values(views(error))) expect(text).not.toContain(core);
    expect(error.message).toContain(redacted);
    await traced.journals.get(8);
    expect(logged.length).toBeGreaterThan(0);
    await traced.journals.get(9);
    const lines = logged.map(({ message, details }) => `${message} ${JSON.stringify(details)}`);
    expect(lines.join('\n')).toContain(`you sent`);
    for (const line of lines) expect(line).not.toContain(core);
    // The clean answer is kept; the one that echoed the key is not (`#…` keys mark flights, not answers).
    const kept = [...entries.keys()].filter((key) => !key.includes('#'));
    expect(kept.filter((key) => /journals\/(8|9)$/.test(key)).map((key) => key.slice(-1))).toEqual(['9']);
    expect([...entries.values()].join('\n')).not.toContain(core);
  });
});

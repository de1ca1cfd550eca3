// The redactor's own helpers: text, several secrets, values, headers, and the look before the pattern.
import { describe, expect, it } from 'vitest';
import {
  mentionsSecret,
  redacted,
  redactHeaders,
  redactSecrets,
  redactText,
  redactValue,
} from '../../src/core/redact.js';
import { TEST_KEY } from '../support.js';
import { redactCause } from './redact-setup.js';

describe('redact helpers', () => {
  it('redactText replaces every occurrence, and leaves text without the secret alone', () => {
    expect(redactText(`a ${TEST_KEY} b ${TEST_KEY}`, TEST_KEY)).toBe(`a ${redacted} b ${redacted}`);
    expect(redactText('nothing here', TEST_KEY)).toBe('nothing here');
    expect(redactText(`a ${TEST_KEY}`, null)).toBe(`a ${TEST_KEY}`);
    expect(redacted).toBe('[redacted]');
  });

  it('redactSecrets cuts several secrets in one pass: one inside another, or inside the word, leaves nothing', () => {
    const secrets = ['S3cret', 'S3cret-p@w', 'red'];
    expect(redactSecrets('pw=S3cret-p@w user=red', secrets)).toBe(`pw=${redacted} user=${redacted}`);
    expect(redactSecrets('pw=S3cret%2Dp%40w, S3cret alone', secrets)).toBe(
      `pw=${redacted}, ${redacted} alone`,
    );
    expect(redactSecrets('nothing here', [])).toBe('nothing here');
    // Another set of secrets, then the first again: each is found.
    expect(redactSecrets('a TEST_KEY-1 b', ['TEST_KEY-1'])).toBe(`a ${redacted} b`);
    expect(redactSecrets('pw=S3cret-p@w', secrets)).toBe(`pw=${redacted}`);
  });

  it('two secrets sharing a long start: either, cut short, goes as far as it is written', () => {
    const client = 'sm_live_team42_Q7fZ1xYwVb3NcR8t';
    const user = 'sm_live_team42_aaaaBBBBccccDDDD';
    // A message quoting the user's key cut to 24 characters: past the shared start, it is the user's.
    expect(redactText(`key "${user.slice(0, 24)}…" refused`, [client, user])).toBe(
      `key "${redacted}…" refused`,
    );
    expect(redactText(`key "${client.slice(0, 24)}…" refused`, [user, client])).toBe(
      `key "${redacted}…" refused`,
    );
  });

  it('redactValue deep-copies, replacing the secret in strings and keys at any depth', () => {
    const input = {
      message: `bad key ${TEST_KEY}`,
      [`k_${TEST_KEY}`]: [1, null, true, { [TEST_KEY]: `${TEST_KEY}${TEST_KEY}` }],
      n: 5,
    };
    const output = redactValue(input, TEST_KEY);
    expect(output).toEqual({
      message: `bad key ${redacted}`,
      [`k_${redacted}`]: [1, null, true, { [redacted]: `${redacted}${redacted}` }],
      n: 5,
    });
    expect(JSON.stringify(input)).toContain(TEST_KEY); // the input is untouched
    expect(redactValue(input, null)).toBe(input);
  });

  it('redactHeaders returns the same Headers when nothing leaks, a clean copy otherwise', () => {
    const clean = new Headers({ 'x-a': '1' });
    expect(redactHeaders(clean, TEST_KEY)).toBe(clean);
    const leaking = new Headers({ 'x-echo': `Bearer ${TEST_KEY}`, 'x-b': '2' });
    const out = redactHeaders(leaking, TEST_KEY);
    expect(out.get('x-echo')).toBe(`Bearer ${redacted}`);
    expect(out.get('x-b')).toBe('2');
  });

  it('redactCause returns the error itself when clean, a stand-in with name, message and stack redacted otherwise', () => {
    const clean = new TypeError('fetch failed');
    expect(redactCause(clean, TEST_KEY)).toBe(clean);
    const dirty = new TypeError(`header Bearer ${TEST_KEY} is invalid`);
    const out = redactCause(dirty, TEST_KEY) as Error;
    expect(out).not.toBe(dirty);
    expect(out.name).toBe('TypeError');
    expect(out.message).toBe(`header Bearer ${redacted} is invalid`);
    expect(out.stack).not.toContain(TEST_KEY);
    expect(redactCause('a string', TEST_KEY)).toBe('a string');
  });
});

describe('the look before the pattern', () => {
  const secret = 'Bearer sk_live_5c8e2a7f91d4';
  const base64 = (text: string) => Buffer.from(text).toString('base64');

  it('finds the secret written as is, with + for a space, or with any escape in the text', () => {
    expect(redactText(`echo: ${secret}`, secret)).toBe(`echo: ${redacted}`);
    expect(redactText(`q=${secret.replace(' ', '+')}`, secret)).toBe(`q=${redacted}`);
    expect(redactText(`echo: ${secret.replace('k', '%6b')}`, secret)).toBe(`echo: ${redacted}`);
    expect(redactText(`"${secret.replace('_', '\\u005f')}"`, secret)).toBe(`"${redacted}"`);
    expect(redactText(`x${base64(secret)}x`, secret)).not.toContain(base64(secret).slice(4, 20));
  });

  it('finds it in another case: an echo upper- or lower-cased, a hex key the same secret either way', () => {
    expect(redactText(`echo: ${secret.toUpperCase()}`, secret)).toBe(`echo: ${redacted}`);
    expect(redactText(`echo: ${secret.toLowerCase().replace('_', '%5F')}`, secret)).toBe(`echo: ${redacted}`);
    const hex = '9F86D081884C7D659A2FEAA0C55AD015';
    expect(redactText(`key ${hex.toLowerCase()} refused`, hex)).toBe(`key ${redacted} refused`);
    expect(mentionsSecret(`key ${hex.toLowerCase().slice(0, 14)}…`, hex)).toBe(true);
  });

  it('leaves a text that cannot hold it as it is', () => {
    const text = JSON.stringify({ id: 7, name: 'Journal of Tests', description: 'nothing secret' });
    expect(redactText(text, secret)).toBe(text);
    expect(mentionsSecret(text, secret)).toBe(false);
  });
});

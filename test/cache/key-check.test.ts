// The cache's check for the key in an answer it would keep (`holdsKey`) is the redaction's
// (`mentionsSecret`) with a shortcut: a property test that both agree on every text, with the key in
// every form the redaction knows, cut short, or absent.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdsKey } from '../../src/cache/entry-checks.js';
import { mentionsSecret } from '../../src/core/redact.js';

const hex = (character: string) => character.charCodeAt(0).toString(16).padStart(2, '0');
const ways: Array<(character: string) => string> = [
  (c) => c,
  (c) => `%${hex(c).toUpperCase()}`,
  (c) => `%25${hex(c)}`,
  (c) => `\\u00${hex(c)}`,
  (c) => `&#${c.charCodeAt(0)};`,
  (c) => `&#x${hex(c)};`,
  (c) => (c === ' ' ? '+' : c),
];

const printable = (min: number, max: number) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
    minLength: min,
    maxLength: max,
  });
/** Text with none of the characters that start an encoded form. */
const plain = (min: number, max: number) => printable(min, max).map((text) => text.replace(/[%\\&+]/g, ''));

describe('holdsKey', () => {
  it('agrees with the redaction on every text', () => {
    fc.assert(
      fc.property(
        printable(1, 40),
        fc.array(fc.nat(ways.length - 1), { minLength: 1, maxLength: 8 }),
        fc.nat(60),
        fc.boolean(),
        plain(0, 30),
        printable(0, 30),
        (key, picks, cut, escapedNoise, before, noisy) => {
          const encoded = [...key].map((c, i) => ways[picks[i % picks.length]!]!(c)).join('');
          const texts = [
            `${before}${encoded}${escapedNoise ? noisy : ''}`,
            `${before}${key.slice(0, cut % (key.length + 1))}`,
            `${before}${key}`,
            before,
            `${noisy}${before}`,
          ];
          for (const text of texts) expect(holdsKey(text, key)).toBe(mentionsSecret(text, key));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('finds the key as written, cut short, and encoded; nothing in a text without it', () => {
    const key = 'sm_live_0123456789abcdef';
    expect(holdsKey(`{"name":"${key}"}`, key)).toBe(true);
    expect(holdsKey(`{"name":"${key.slice(0, 14)}"}`, key)).toBe(true);
    expect(holdsKey(`{"name":"${encodeURIComponent(key).replace('_', '%5F')}"}`, key)).toBe(true);
    expect(holdsKey('{"name":"Science & Nature"}', key)).toBe(false);
    expect(holdsKey('{"name":"sm_live_"}', key)).toBe(false);
    expect(holdsKey(`{"name":"${key}"}`, null)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { escapeUnsafe, hasUnsafe } from '../../src/core/escape.js';

describe('escapeUnsafe, the message renderer of the terminal-unsafe characters', () => {
  it('writes each as a \\uXXXX escape', () => {
    expect(escapeUnsafe('\u001b[31mred')).toBe('\\u001b[31mred');
    expect(escapeUnsafe('\ufeff{"a":1}')).toBe('\\ufeff{"a":1}');
    expect(escapeUnsafe('\u202egnp.exe \u2028 \u0085')).toBe('\\u202egnp.exe \\u2028 \\u0085');
    expect(escapeUnsafe('Zoë 日本 🇯🇵')).toBe('Zoë 日本 🇯🇵');
  });

  it('hasUnsafe answers the same on every call (the class is a global expression)', () => {
    expect([hasUnsafe('a\u0007'), hasUnsafe('a\u0007'), hasUnsafe('plain')]).toEqual([true, true, false]);
  });
});

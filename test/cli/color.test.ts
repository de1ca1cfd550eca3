import { describe, expect, it } from 'vitest';
import { palette, useColor } from '../../src/cli/color.js';

describe('colour', () => {
  it('--color decides; else NO_COLOR, FORCE_COLOR, then whether it is a terminal', () => {
    expect(useColor({ env: {}, terminal: true })).toBe(true);
    expect(useColor({ env: {}, terminal: false })).toBe(false);
    expect(useColor({ env: { NO_COLOR: '1' }, terminal: true })).toBe(false);
    expect(useColor({ env: { NO_COLOR: '' }, terminal: true })).toBe(true);
    expect(useColor({ env: { FORCE_COLOR: '1' }, terminal: false })).toBe(true);
    expect(useColor({ env: { FORCE_COLOR: '0' }, terminal: true })).toBe(false);
    expect(useColor({ choice: 'always', env: { NO_COLOR: '1' }, terminal: false })).toBe(true);
    expect(useColor({ choice: 'never', env: { FORCE_COLOR: '1' }, terminal: true })).toBe(false);
  });

  it('styles with SGR codes only when on', () => {
    expect(palette(true).header('ID')).toBe('\u001b[1mID\u001b[22m');
    expect(palette(true).error('error')).toBe('\u001b[31merror\u001b[39m');
    expect(palette(false).hint('hint')).toBe('hint');
  });
});

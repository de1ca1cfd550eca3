// checkDoi: the DOIs it accepts, those it refuses, and how a refused one is shown.
import { describe, expect, it } from 'vitest';
import { checkDoi } from '../../src/core/params.js';
import { refusal } from './params-setup.js';

describe('checkDoi', () => {
  it.each([
    '10.1000/xyz123',
    '10.1000/abc/def',
    '10.1002/(SICI)1097-4636(199709)36:4<517::AID-JBM10>3.0.CO;2-K',
    '10.5555/üñí-ç',
    '10.1000/a?b#c%d&e=f',
    '10.1000/with spaces',
    '10.1000//',
    '10.1000.5/x',
    '10.😀/😀',
  ])('accepts %j', (doi) => {
    expect(checkDoi(doi)).toBe(doi);
  });

  it.each<[unknown]>([
    [''],
    ['abc'],
    ['11.1000/x'],
    ['10.1000'],
    ['10.1000/'],
    [' 10.1000/x'],
    ['10. 1000/x'],
    ['10.10\u00a000/x'],
    ['10./x'],
    ['10/x'],
    ['doi:10.1000/x'],
    ['https://doi.org/10.1000/x'],
    ['10.1/\uD800'],
    // A trailing space or newline (a line read from a file), a control character: sent before.
    ['10.1000/ '],
    ['10.1000/xyz '],
    ['10.1000/xyz\n'],
    ['10.1000/\n'],
    ['10.1000/x\u0000y'],
    ['10.1000/\t'],
    ['10.10\u000100/x'],
    ['10.1\uDBFF/x'],
    // What a terminal may act on (core/escape.ts's class): a bidi override makes one DOI read as another.
    ['10.1000/\u202Elive'],
    ['10.10\u202E00/x'],
    ['10.1000/a\u200Eb'],
    ['10.1000/\u2066x\u2069'],
    ['10.1000/a\u061Cb'],
    ['10.1000/a\u2028b'],
    ['10.1000/\uFEFFx'],
    [123],
    [10.1],
    [null],
    [undefined],
    [{}],
  ])('refuses %o, naming doi and showing the expected form', (value) => {
    const error = refusal(() => checkDoi(value));
    expect(error.parameter).toBe('doi');
    expect(error.message).toMatch(/^doi must be a DOI such as "10\.1000\/xyz123"/);
  });

  it('a refused right-to-left override is shown escaped, never acting on the terminal', () => {
    const error = refusal(() => checkDoi('10.1000/\u202Elive'));
    expect(error.message).toContain('got string "10.1000/\\u202elive"');
    expect(error.message).not.toContain('\u202E');
  });

  it('a long refused value is shown shortened', () => {
    const error = refusal(() => checkDoi(`x${'y'.repeat(100)}`));
    expect(error.message).toContain(`got string "x${'y'.repeat(39)}…"`);
    expect(error.message).not.toContain('y'.repeat(41));
  });
});

import { describe, expect, it } from 'vitest';
import { terminalCell, terminalSafe } from '../../../src/cli/output/escape.js';
import { headerLine, layoutTable, recordLines, rowLines, tableCell } from '../../../src/cli/output/table.js';
import { displayWidth, truncate } from '../../../src/cli/output/width.js';
import { escapeUnsafe, hasUnsafe as hasActive } from '../../../src/core/escape.js';
import { hostile } from './hostile.js';

describe('terminalSafe', () => {
  it('escapes every character a terminal acts on, and nothing printable', () => {
    for (const text of Object.values(hostile)) {
      const safe = terminalSafe(text);
      expect(hasActive(safe)).toBe(false);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for them
      expect(safe).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    }
    expect(terminalSafe(hostile.clear)).toBe('\\e[2J\\e[H');
    expect(terminalSafe(hostile.csi8bit)).toBe('\\x9B31m');
    expect(terminalSafe(hostile.rlo)).toBe('\\u{202E}gnp.exe');
    expect(terminalSafe('a\tb\nc\rd')).toBe('a\\tb\\nc\\rd');
    expect(terminalSafe('Zoë 日本 🇯🇵 é')).toBe('Zoë 日本 🇯🇵 é');
  });

  it('escapes a BOM too, as the message renderer does', () => {
    expect(terminalSafe('\ufeffname')).toBe('\\u{FEFF}name');
  });

  it('both renderers escape the same characters, every one of the Basic Multilingual Plane checked', () => {
    const disagreements: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue; // lone surrogates: not characters
      const character = String.fromCharCode(code);
      const inMessage = escapeUnsafe(character) !== character;
      const inCell = terminalSafe(character) !== character;
      if (inMessage !== inCell || inMessage !== hasActive(character)) disagreements.push(code.toString(16));
    }
    expect(disagreements).toEqual([]);
  });

  it('counts a soft hyphen a column wide, as terminals draw it (string-width counts none)', () => {
    expect(displayWidth('soft\u00adhyphen')).toBe(11);
    expect(displayWidth('日本\u00ad')).toBe(5);
    expect(displayWidth(truncate('a\u00adb\u00adc\u00add', 4))).toBeLessThanOrEqual(4);
  });

  it('cutting an escaped cell never splits an escape', () => {
    const safe = terminalSafe(`x${hostile.osc52}`);
    for (let width = 1; width < displayWidth(safe); width++) {
      const cut = truncate(safe, width);
      expect(displayWidth(cut)).toBeLessThanOrEqual(width);
      // What is left before `…` is whole escapes: a prefix of the escaped text made of complete units.
      expect(cut.slice(0, -1)).toMatch(/^(x|\\e|\]|5|2|;|c|Z|X|V|p|b|A|=|\\x07)*$/);
    }
  });

  it("a cell writes the text's own backslash as \\\\: an escape there is always a character the text held", () => {
    // Typed by a server, each looked like its control character: now the two read apart.
    const pairs: Array<[string, string]> = [
      ['\\e[2J', '\u001b[2J'],
      ['C:\\new', 'C:\new'],
      ['a\\x07b', 'a\u0007b'],
      ['\\u{202E}gnp.exe', '\u202egnp.exe'],
    ];
    for (const [typed, control] of pairs) {
      expect(tableCell(typed, 'title')).not.toBe(tableCell(control, 'title'));
      expect(tableCell(typed, 'title')).toBe(typed.replaceAll('\\', '\\\\'));
    }
    expect(terminalCell('C:\\new\n')).toBe('C:\\\\new\\n');
    // A cut never splits the `\\` of a backslash either.
    const cut = truncate(terminalCell('\\\\\\'), 4);
    expect(cut).toBe('\\\\…');
  });

  it('every table cell, header and record view shows the escaped form, its width counted', () => {
    const rows = [{ id: 1, [`name${hostile.title}`]: `A ${hostile.osc8} B`, note: hostile.clear }];
    const columns = Object.keys(rows[0]!);
    const layout = layoutTable(columns, rows, 60);
    const text = headerLine(layout) + rowLines(layout, rows) + recordLines(rows[0]!, 60);
    expect(hasActive(text.replaceAll('\n', ''))).toBe(false);
    for (const line of text.trimEnd().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(60);
  });
});

describe('documents written to a terminal', () => {
  it('escape what acts on it, keeping line breaks and tabs', async () => {
    const { listWriter, formatRecord } = await import('../../../src/cli/output/formats.js');
    const rows = [{ id: 1, title: `a${hostile.osc52}\tb` }];
    for (const format of ['csv', 'tsv', 'jsonl', 'json'] as const) {
      const writer = listWriter(format, undefined, undefined, { terminal: true });
      const text = writer.rows(rows) + writer.end();
      expect(hasActive(text.replace(/\r\n|\n|\t/g, ''))).toBe(false);
      const record = formatRecord(format, { title: `x${hostile.csi8bit}` }, undefined, { terminal: true });
      expect(record).toContain('\\x9B31m');
    }
    // Not on a terminal: the data as sent.
    expect(listWriter('csv', undefined).rows(rows)).toContain(hostile.osc52);
  });
});

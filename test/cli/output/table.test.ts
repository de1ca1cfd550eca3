import { describe, expect, it } from 'vitest';
import {
  headerLine,
  hiddenLine,
  kindOf,
  layoutTable,
  recordLines,
  rowLines,
} from '../../../src/cli/output/table.js';
import { displayWidth } from '../../../src/cli/output/width.js';

const papers = [
  {
    id: 4353,
    title: 'Rethinking microbial coral reefs under uncertainty and over three long decades of change',
    authors: 'Chen Schmidt, Ana Moreau',
    doi: '10.5023/sm.263.2002.004353',
    year: 2002,
    citations: 12548,
    oa: false,
    journal_id: 263,
  },
  {
    id: 12645,
    title: 'Short',
    authors: 'Nadia Yamamoto',
    doi: '10.5034/sm.154.1998.012645',
    year: 1998,
    citations: 5,
    oa: true,
    journal_id: 154,
  },
];
const columns = Object.keys(papers[0]!);

function render(width: number | undefined) {
  const layout = layoutTable(columns, papers, width);
  return { layout, text: headerLine(layout) + rowLines(layout, papers) + hiddenLine(layout) };
}

describe('the table format', () => {
  it('knows identifiers, numbers, booleans and dates from free text', () => {
    expect(columns.map((column) => kindOf(column, papers))).toEqual([
      'number',
      'text',
      'text',
      'identifier',
      'number',
      'number',
      'boolean',
      'number',
    ]);
    expect(kindOf('date', [{ date: '2024-12-31' }])).toBe('date');
  });

  it('at 120 columns cuts only free text, and never an id, a DOI, a number or a boolean', () => {
    const { text, layout } = render(120);
    const lines = text.trimEnd().split('\n');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(120);
    expect(layout.hidden).toEqual([]);
    for (const paper of papers) {
      expect(text).toContain(paper.doi);
      expect(text).toContain(String(paper.journal_id));
      expect(text).toContain(String(paper.oa));
    }
    expect(text).toContain('12,548');
    expect(text).toContain('2002');
    expect(text).not.toContain('2,002');
    expect(text).toContain('4353');
    expect(lines[1]).toContain('…');
  });

  it('at 220 columns shows the whole title', () => {
    const { text } = render(220);
    expect(text).toContain(papers[0]!.title);
    expect(text).not.toContain('…');
  });

  it('at 50 columns drops the trailing columns and says which', () => {
    const { text, layout } = render(50);
    const table = headerLine(layout) + rowLines(layout, papers);
    for (const line of table.trimEnd().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(50);
    expect(layout.hidden.length).toBeGreaterThan(0);
    expect(layout.columns.concat(layout.hidden)).toEqual(columns);
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      `${layout.hidden.length} columns hidden (${layout.hidden.join(', ')}): --fields to choose`,
    );
    // What is shown of an identifier or a number is shown whole.
    expect(text).toMatch(/^ +ID {2}/);
    expect(text).toContain('12645');
  });

  it('right-aligns numbers and pads by display width (CJK, emoji, combining marks)', () => {
    const rows = [
      { id: 1, name: '日本', flag: '🇯🇵', papers: 1200 },
      { id: 22, name: 'Côte d’Ivoire', flag: '🇨🇮', papers: 7 },
      { id: 3, name: 'Zoë', flag: '🇩🇪', papers: 15 },
    ];
    const layout = layoutTable(['id', 'name', 'flag', 'papers'], rows, 80);
    const lines = (headerLine(layout) + rowLines(layout, rows)).trimEnd().split('\n');
    // Every line's PAPERS column ends at the same display column.
    const ends = lines.map((line) => displayWidth(line));
    expect(new Set(ends).size).toBe(1);
    expect(lines[1]).toMatch(/^ 1 {2}日本 +🇯🇵 +1,200$/);
    expect(lines[2]).toMatch(/^22 /);
  });

  it('writes a record as field and value lines; nested values as JSON, amounts grouped', () => {
    expect(recordLines({ id: 7, citations: 12345, tags: ['a', 'b'] }, undefined)).toBe(
      'id         7\ncitations  12,345\ntags       ["a","b"]\n',
    );
  });
});

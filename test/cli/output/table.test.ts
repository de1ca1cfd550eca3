import { describe, expect, it } from 'vitest';
import { fitWidths, headerLines, recordLines, rowLines } from '../../../src/cli/output/table.js';

const records = [
  { id: 1, title: 'A very long title about coral reefs and their bleaching over three decades', year: 2020 },
  { id: 22, title: 'Short', year: 2021, authors: ['Okafor', 'Lee'] },
];
const columns = ['id', 'title', 'year', 'authors'];

describe('the table format', () => {
  it('fits the columns into the width, cutting long cells with …', () => {
    const widths = fitWidths(columns, records, 50);
    const text = headerLines(columns, widths) + rowLines(columns, widths, records);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(50);
    expect(text).toBe(
      [
        'ID  TITLE                   YEAR  AUTHORS',
        '1   A very long title abo…  2020',
        '22  Short                   2021  ["Okafor","Lee"]',
        '',
      ].join('\n'),
    );
  });

  it('leaves the last columns out when even the narrowest widths do not fit', () => {
    const widths = fitWidths(columns, records, 20);
    expect(widths.length).toBeLessThan(columns.length);
    expect(widths.reduce((sum, width) => sum + width, 0) + 2 * (widths.length - 1)).toBeLessThanOrEqual(20);
  });

  it('writes a record as field and value lines; nested values as JSON', () => {
    expect(recordLines({ id: 7, tags: ['a', 'b'] }, undefined)).toBe('id    7\ntags  ["a","b"]\n');
  });
});

import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellOf, spreadsheetCell, tsvField } from '../../../src/cli/output/cells.js';
import { valueAt } from '../../../src/cli/output/fields.js';
import { chooseFormat, formatRecord, listWriter, tablesFor } from '../../../src/cli/output/formats.js';

describe('the list writers', () => {
  it('chooses table on a terminal, else json for one record and jsonl for a list', () => {
    expect(chooseFormat(undefined, true, true)).toBe('table');
    expect(chooseFormat(undefined, false, false)).toBe('json');
    expect(chooseFormat(undefined, false, true)).toBe('jsonl');
    expect(chooseFormat('csv', true, true)).toBe('csv');
  });

  it('continues one JSON array and one CSV document across a resume', () => {
    for (const format of ['json', 'csv'] as const) {
      const whole = listWriter(format, undefined);
      const all = whole.rows([{ a: 1 }, { a: 2 }]) + whole.rows([{ a: 3, b: 'x,"y"' }]) + whole.end();
      const first = listWriter(format, undefined);
      const head = first.rows([{ a: 1 }, { a: 2 }]);
      const resumed = listWriter(format, undefined, JSON.parse(JSON.stringify(first.state())));
      expect(head + resumed.rows([{ a: 3, b: 'x,"y"' }]) + resumed.end()).toBe(all);
    }
    expect(listWriter('json', undefined).end()).toBe('[]\n');
  });

  it('hands a terminal whole lines, a json record held until its comma: the same document', () => {
    const pages = [[{ a: 1 }, { a: 2 }], [], [{ a: 3, b: 'x,"y"' }]];
    for (const format of ['json', 'jsonl', 'csv', 'tsv'] as const) {
      const file = listWriter(format, undefined);
      const terminal = listWriter(format, undefined, undefined, { terminal: true });
      const chunks = [...pages.map((page) => terminal.rows(page)), terminal.end()];
      for (const chunk of chunks) expect(chunk === '' || chunk.endsWith('\n'), format).toBe(true);
      const whole = pages.map((page) => file.rows(page)).join('') + file.end();
      expect(chunks.join(''), format).toBe(whole);
    }
  });

  it('writes an element that is no object (a result of unpublished shape) in a column `value`', async () => {
    const elements = ['10.1000/a', null, 7, ['x'], { id: 1 }] as never[];
    expect(listWriter('csv', undefined).rows(elements)).toBe(
      'value,id\r\n10.1000/a,\r\n,\r\n7,\r\n"[""x""]",\r\n,1\r\n',
    );
    expect(listWriter('tsv', undefined).rows(elements)).toBe(
      'value\tid\n10.1000/a\t\n\t\n7\t\n["x"]\t\n\t1\n',
    );
    const tables = await tablesFor('table');
    const table = listWriter('table', 80, undefined, { tables }).rows(elements);
    expect(table.split('\n')[0]).toMatch(/^VALUE +ID *$/);
    expect(table).toContain('10.1000/a');
    expect(listWriter('jsonl', undefined).rows(elements)).toBe('"10.1000/a"\nnull\n7\n["x"]\n{"id":1}\n');
  });

  it('warns of the fields a later page holds beside the columns the first page set (csv, tsv, table)', async () => {
    const pages = [
      [{ id: 1, doi: '10.1000/a' }],
      [{ id: 2, doi: '10.1000/b', venue: 'X' }, '10.1000/c'],
      [{ id: 3, venue: 'Y' }],
    ];
    const tables = await tablesFor('table');
    for (const format of ['csv', 'tsv', 'table'] as const) {
      const writer = listWriter(format, 120, undefined, { tables, terminal: format === 'csv' });
      for (const page of pages) writer.rows(page as never[]);
      expect(writer.warning?.(), format).toBe(
        'warning: fields with no column, left out (the first page set the columns): "venue" 2, "value" 1\n',
      );
    }
    // --fields chooses the columns: nothing else is missed.
    const chosen = listWriter('csv', undefined, undefined, { fields: ['id'] });
    for (const page of pages) chosen.rows(page as never[]);
    expect(chosen.warning?.() ?? '').toBe('');
    const same = listWriter('csv', undefined);
    same.rows([{ id: 1 }]);
    same.rows([{ id: 2 }]);
    expect(same.warning?.()).toBe('');
    // An empty page first (a batch whose DOIs all failed) sets no columns: the next page does.
    for (const format of ['csv', 'table'] as const) {
      const late = listWriter(format, 120, undefined, { tables });
      late.rows([]);
      late.rows([{ id: 1, doi: '10.1000/a' }]);
      late.rows([{ id: 2, doi: '10.1000/b' }]);
      expect(late.warning?.(), format).toBe('');
    }
  });
});

describe('csv and tsv for analysts', () => {
  const records = [
    { id: 1, name: '=HYPERLINK("https://evil.example","x")', score: -3, note: '+1', at: '@SUM(A1)' },
    { id: 2, name: '\tlead\ttab', score: 4, note: 'line\nbreak\\x', at: '-minus' },
  ];

  it('escapes what a spreadsheet would run, on string fields only; --raw-cells keeps them', () => {
    const csv = listWriter('csv', undefined).rows(records);
    const rows = parse(csv, { relax_column_count: false }) as string[][];
    expect(rows[1]).toEqual(['1', `'=HYPERLINK("https://evil.example","x")`, '-3', "'+1", "'@SUM(A1)"]);
    expect(rows[2]![1]).toBe("'\tlead\ttab");
    expect(rows[2]![2]).toBe('4');
    expect(rows[2]![4]).toBe("'-minus");
    // A line break inside a field is quoted, CR or LF alone included: one record, one line of the file.
    expect(csv).toContain(',"line\nbreak\\x",');
    const raw = parse(
      listWriter('csv', undefined, undefined, { rawCells: true }).rows(records),
    ) as string[][];
    expect(raw[1]![1]).toBe(records[0]!.name);
  });

  it('csv: a lone empty field is written "", never as a blank line that pandas would skip', () => {
    const writer = listWriter('csv', undefined, undefined, { columns: ['title'], fields: ['title'] });
    expect(writer.rows([{ title: '' }, { title: 'a' }, { title: null }, {}]) + writer.end()).toBe(
      'title\r\n""\r\na\r\n""\r\n""\r\n',
    );
    // Beside another field an empty one stays empty, as csv-stringify writes it.
    const two = listWriter('csv', undefined, undefined, {
      columns: ['doi', 'title'],
      fields: ['doi', 'title'],
    });
    expect(two.rows([{ doi: '', title: '' }])).toBe('doi,title\r\n,\r\n');
  });

  it('csv: the same bytes as csv-stringify (with line breaks quoted) for any records', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', ' ', ',', '"', '\r', '\n', '\t', '=', "'", 'é', '\u2028', '\ufeff'),
    });
    const cell = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null));
    const records = fc.array(fc.dictionary(fc.constantFrom('a', 'b,c', 'd"'), cell), { maxLength: 5 });
    fc.assert(
      fc.property(records, fc.boolean(), (rows, rawCells) => {
        const columns = ['a', 'b,c', 'd"'];
        const writer = listWriter('csv', undefined, undefined, { rawCells, columns, fields: columns });
        const cells = (row: Record<string, unknown>) =>
          columns.map((column) => {
            const value = row[column];
            const plain = value === undefined || value === null ? '' : String(value);
            return !rawCells && typeof value === 'string' && /^[=+\-@\t\r]/.test(plain) ? `'${plain}` : plain;
          });
        // A lone CR or LF quoted too: csv-stringify's default leaves it bare, and pandas then splits the row.
        const expected = stringify([columns, ...rows.map(cells)], {
          record_delimiter: 'windows',
          quoted_match: /[\r\n]/,
        });
        expect(writer.rows(rows) + writer.end()).toBe(expected);
      }),
    );
  });

  it('csv, tsv and jsonl: each value by the plain rules, page by page, with or without --fields', () => {
    // The writers take shortcuts (a value tested once, a field read without projecting the record):
    // they must write what the rules spelt out plainly write, nested paths and lists included.
    const text = fc.string({
      unit: fc.constantFrom('a', ',', '"', '\r', '\n', '\t', '\\', '=', '+', '-', '@', "'", 'é'),
    });
    // Each case a shortcut must not miss, as a whole value: random text finds them only now and then.
    const edge = fc.constantFrom('@a', '=1+1', '-x', '+', '\tx', '\rx', 'a,b', 'q"q', 'l\nf', 'b\\s', 'ok');
    const leaf = fc.oneof(text, edge, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
    const nested = fc.dictionary(fc.constantFrom('t', 'u'), leaf);
    const value = fc.oneof(leaf, fc.constant(undefined), nested, fc.array(nested, { maxLength: 2 }));
    const record = fc.dictionary(fc.constantFrom('a', 'b,c', '=d', 'e'), value);
    const paths = ['a', 'b,c', '=d', 'e', 'e.t', 'e.u', 'missing'];
    const fields = fc.option(fc.uniqueArray(fc.constantFrom(...paths), { minLength: 1, maxLength: 4 }), {
      nil: undefined,
    });
    const format = fc.constantFrom('csv' as const, 'tsv' as const, 'jsonl' as const);
    const pages = fc.array(fc.array(record, { maxLength: 4 }), { maxLength: 3 });
    fc.assert(
      fc.property(pages, format, fields, fc.boolean(), (pages, format, fields, rawCells) => {
        const writer = listWriter(format, undefined, undefined, { fields, rawCells });
        const written = pages.map((page) => writer.rows(page)).join('') + writer.end();
        expect(written).toBe(plainly(pages, format, fields, rawCells));
      }),
    );
  });

  it('writes tsv with tabs, newlines and backslashes escaped, one line a record', () => {
    const tsv = listWriter('tsv', undefined, undefined, { rawCells: true }).rows(records);
    const lines = tsv.split('\n');
    expect(lines[0]).toBe('id\tname\tscore\tnote\tat');
    expect(lines[2]).toBe('2\t\\tlead\\ttab\t4\tline\\nbreak\\\\x\t-minus');
    expect(lines).toHaveLength(4);
  });

  it('writes only the fields asked for, in that order, in every format', () => {
    const fields = { fields: ['score', 'id'] };
    expect(listWriter('jsonl', undefined, undefined, fields).rows(records)).toBe(
      '{"score":-3,"id":1}\n{"score":4,"id":2}\n',
    );
    expect(listWriter('tsv', undefined, undefined, fields).rows(records)).toBe('score\tid\n-3\t1\n4\t2\n');
    expect(formatRecord('json', records[0]!, undefined, fields)).toBe('{\n  "score": -3,\n  "id": 1\n}\n');
  });

  it('an empty list still gets its header row', () => {
    for (const format of ['csv', 'tsv'] as const) {
      const writer = listWriter(format, undefined, undefined, { columns: ['id', 'title'] });
      const text = writer.rows([]) + writer.end();
      expect(parse(text, { delimiter: format === 'csv' ? ',' : '\t' })).toEqual([['id', 'title']]);
    }
    const chosen = listWriter('csv', undefined, undefined, { columns: ['id'], fields: ['doi'] });
    expect(chosen.end()).toBe('doi\r\n');
  });

  it('follows the extension of --output unless --format is given', () => {
    expect(chooseFormat(undefined, false, true, 'a/journals.csv')).toBe('csv');
    expect(chooseFormat(undefined, false, true, 'x.TSV')).toBe('tsv');
    expect(chooseFormat(undefined, false, false, 'x.json')).toBe('json');
    expect(chooseFormat(undefined, false, false, 'x.ndjson')).toBe('jsonl');
    expect(chooseFormat(undefined, false, true, 'x.jsonl')).toBe('jsonl');
    expect(chooseFormat(undefined, false, true, 'x.txt')).toBe('jsonl');
    expect(chooseFormat('json', false, true, 'x.csv')).toBe('json');
  });

  it('takes .sqlite, .sqlite3 and .db for a SQLite database, in any case', () => {
    for (const name of ['m.sqlite', 'm.sqlite3', 'M.SQLITE3', 'm.db'])
      expect(chooseFormat(undefined, false, true, name)).toBe('sqlite');
  });
});

/** The list as the format's rules say, spelt out: what the writers must write, however they do it. */
function plainly(
  pages: Record<string, unknown>[][],
  format: 'csv' | 'tsv' | 'jsonl',
  fields: string[] | undefined,
  rawCells: boolean,
): string {
  const shaped = (record: Record<string, unknown>) =>
    fields === undefined
      ? record
      : Object.fromEntries(fields.map((field) => [field, valueAt(record, field.split('.'))]));
  const records = pages.flat();
  if (format === 'jsonl') return records.map((record) => `${JSON.stringify(shaped(record))}\n`).join('');
  // The first page with records decides the columns: a header cannot grow once written.
  const first = pages.find((page) => page.length > 0);
  if (first === undefined && fields === undefined) return '';
  const columns = fields ?? [...new Set(first!.flatMap((record) => Object.keys(record)))];
  const cell = rawCells ? cellOf : spreadsheetCell;
  const field =
    format === 'csv'
      ? (value: unknown) => {
          const text = cell(value);
          return /[,"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
        }
      : (value: unknown) => tsvField(cell(value));
  const [separator, end] = format === 'csv' ? [',', '\r\n'] : ['\t', '\n'];
  // A csv row of one empty field is "": a blank line would be skipped by pandas.
  const line = (values: unknown[]) => {
    const text = values.map(field).join(separator);
    return (format === 'csv' && values.length === 1 && text === '' ? '""' : text) + end;
  };
  return (
    line(columns) + records.map((record) => line(columns.map((column) => shaped(record)[column]))).join('')
  );
}

import { describe, expect, it } from 'vitest';
import { chooseFormat, listWriter } from '../../../src/cli/output/formats.js';

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
});

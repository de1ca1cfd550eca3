import { describe, expect, it } from 'vitest';
import {
  fieldPaths,
  parseFields,
  projector,
  unknownFields,
  valueAt,
} from '../../../src/cli/output/fields.js';

const tree = { id: null, name: null, journal: { id: null, name: null }, papers: { title: null } };

describe('--fields', () => {
  it('parses names in order, each once', () => {
    expect(parseFields('title, id,title')).toEqual(['title', 'id']);
    expect(() => parseFields('id,,title')).toThrow(/separated by commas/);
  });

  it('knows nested fields by their dot paths', () => {
    expect(fieldPaths(tree)).toEqual([
      'id',
      'name',
      'journal',
      'journal.id',
      'journal.name',
      'papers',
      'papers.title',
    ]);
    expect(unknownFields(['id', 'journal.name', 'journal.issn', 'titel'], tree)).toEqual([
      'journal.issn',
      'titel',
    ]);
  });

  it('picks those fields in that order, through nested records and lists', () => {
    const record = {
      id: 1,
      name: 'A',
      journal: { id: 9, name: 'J' },
      papers: [{ title: 'x' }, { title: 'y' }],
    };
    expect(projector(['journal.name', 'id', 'papers.title'])(record)).toEqual({
      'journal.name': 'J',
      id: 1,
      'papers.title': ['x', 'y'],
    });
    expect(valueAt(record, ['journal', 'missing'])).toBeUndefined();
    expect(valueAt({ a: null }, ['a', 'b'])).toBeUndefined();
    // An inherited property is not a field.
    expect(valueAt({}, ['constructor'])).toBeUndefined();
  });
});

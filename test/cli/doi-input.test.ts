import { describe, expect, it } from 'vitest';
import { normaliseDoi, readDoiList } from '../../src/cli/doi-input.js';

describe('DOIs as people have them', () => {
  it('normalises resolver URLs and doi: prefixes', () => {
    expect(normaliseDoi('https://doi.org/10.1000/abc')).toBe('10.1000/abc');
    expect(normaliseDoi('http://dx.doi.org/10.1000/a%2Fb')).toBe('10.1000/a/b');
    expect(normaliseDoi('HTTPS://DOI.ORG/10.1/x')).toBe('10.1/x');
    expect(normaliseDoi('doi:10.1000/abc')).toBe('10.1000/abc');
    expect(normaliseDoi(' DOI: 10.1000/abc ')).toBe('10.1000/abc');
    expect(normaliseDoi('10.1000/abc')).toBe('10.1000/abc');
  });

  it('reads one a line, a first line `doi` being a header', () => {
    expect(readDoiList('DOI\n10.1/a\n\nhttps://doi.org/10.1/b\r\n', 'dois.txt')).toEqual([
      '10.1/a',
      '10.1/b',
    ]);
    expect(readDoiList('10.1/a\n10.1/b\n', '-')).toEqual(['10.1/a', '10.1/b']);
  });

  it("reads the tool's own csv, tsv and jsonl: the doi column by default, or --input-column", () => {
    const csv = 'id,title,doi\r\n1,"Reefs, warm",10.1/a\r\n2,"Say ""hi""",doi:10.1/b\r\n';
    expect(readDoiList(csv, 'reefs.csv')).toEqual(['10.1/a', '10.1/b']);
    expect(readDoiList('id\tDOI\n1\t10.1/a\n', 'x.tsv')).toEqual(['10.1/a']);
    expect(
      readDoiList('{"id":1,"doi":"10.1/a"}\n{"id":2,"ref":"10.1/c","doi":"10.1/b"}\n', 'p.jsonl', 'ref'),
    ).toEqual(['10.1/c']);
    // Standard input: told by its first line.
    expect(readDoiList('id,doi\n1,10.1/a\n', '-')).toEqual(['10.1/a']);
    expect(readDoiList('{"doi":"10.1/a"}\n', '-')).toEqual(['10.1/a']);
  });

  it('a missing column is a usage error naming the columns there are', () => {
    expect(() => readDoiList('id,title\n1,x\n', 'a.csv')).toThrow(
      '--input a.csv has no column doi (its columns: id, title); name one with --input-column',
    );
    expect(() => readDoiList('{"id":1}\n', 'a.jsonl', 'ref')).toThrow(/no column ref \(its columns: id\)/);
    expect(() => readDoiList('10.1/a\n', 'a.txt', 'ref')).toThrow(/list of one DOI a line/);
    expect(readDoiList('ref\n10.1/a\n', 'a.txt', 'ref')).toEqual(['10.1/a']);
  });
});

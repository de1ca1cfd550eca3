/**
 * The analyst's features in-process, against the mock over real sockets on 127.0.0.1 (and a real HTTP
 * server for hostile data): files parsed back with csv-parse and compared with the API's records.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { useMockServer, useRealServer } from '../support.js';
import { jsonLines, run } from './helpers.js';
import { scratch } from './resume.js';

const mock = useMockServer({ sizes: { journals: 12, papers: 300, authors: 20 } });
const real = useRealServer();

const tsv = (text: string) =>
  parse(text, { delimiter: '\t', columns: true, quote: false }) as Record<string, string>[];
const csv = (text: string) => parse(text, { columns: true }) as Record<string, string>[];

describe('--fields, tsv and the format from the file', () => {
  it('writes the fields asked for, in that order, in tsv, csv, jsonl and json', async () => {
    const { data } = await mock.client().papers.search({ q: 'coral', per_page: 20 });
    const fields = ['doi', 'citations', 'title', 'id'];
    const args = ['papers', 'search', 'coral', '--per-page', '20', '--fields', fields.join(',')];
    const asTsv = await run([...args, '--format', 'tsv'], { url: mock.server.url });
    expect(asTsv.code, asTsv.stderr).toBe(0);
    expect(asTsv.stdout.split('\n')[0]).toBe(fields.join('\t'));
    expect(tsv(asTsv.stdout)).toEqual(
      data.map((p) => ({ doi: p.doi, citations: String(p.citations), title: p.title, id: String(p.id) })),
    );
    const asCsv = await run([...args, '--format', 'csv'], { url: mock.server.url });
    expect(csv(asCsv.stdout)).toEqual(tsv(asTsv.stdout));
    const asJsonl = await run([...args, '--format', 'jsonl'], { url: mock.server.url });
    expect(jsonLines(asJsonl.stdout)).toEqual(
      data.map((p) => ({ doi: p.doi, citations: p.citations, title: p.title, id: p.id })),
    );
    expect(Object.keys(jsonLines(asJsonl.stdout)[0] as object)).toEqual(fields);
  });

  it('a nested field by its dot path', async () => {
    const profile = await mock.client().authors.get(3);
    const result = await run(['authors', 'get', '3', '--fields', 'name,papers.doi', '--format', 'json'], {
      url: mock.server.url,
    });
    expect(JSON.parse(result.stdout)).toEqual({
      name: profile.name,
      'papers.doi': profile.papers.map((p) => p.doi),
    });
  });

  it('an unknown field is a usage error listing the valid ones, before any request', async () => {
    real.serve((_req, res) => {
      res.writeHead(500).end();
    });
    const result = await run(['journals', 'list', '--fields', 'id,titel'], { url: real.base });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no field titel; the fields are: id, name, issn, metric_score, quartile');
    expect(real.hits).toBe(0);
  });

  it('-o FILE chooses the format by its extension; --format wins', async () => {
    const folder = scratch();
    const journals = await mock.client().journals.list();
    for (const [name, check] of [
      [
        'j.csv',
        (text: string) => expect(csv(text).map((row) => Number(row.id))).toEqual(journals.map((j) => j.id)),
      ],
      [
        'j.tsv',
        (text: string) => expect(tsv(text).map((row) => row.name)).toEqual(journals.map((j) => j.name)),
      ],
      ['j.json', (text: string) => expect(JSON.parse(text)).toEqual(journals)],
      ['j.ndjson', (text: string) => expect(jsonLines(text)).toEqual(journals)],
    ] as const) {
      const result = await run(['journals', 'list', '-o', join(folder, name)], { url: mock.server.url });
      expect(result.code, result.stderr).toBe(0);
      check(readFileSync(join(folder, name), 'utf8'));
    }
    await run(['journals', 'list', '-o', join(folder, 'k.csv'), '--format', 'jsonl'], {
      url: mock.server.url,
    });
    expect(jsonLines(readFileSync(join(folder, 'k.csv'), 'utf8'))).toEqual(journals);
  });

  it('an empty result still writes its header row in csv and tsv', async () => {
    for (const format of ['csv', 'tsv']) {
      const result = await run(['papers', 'search', 'zzzznothingmatches', '--format', format], {
        url: mock.server.url,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trimEnd()).toBe(
        ['id', 'title', 'authors', 'doi', 'year', 'citations', 'oa', 'journal_id'].join(
          format === 'csv' ? ',' : '\t',
        ),
      );
    }
  });

  it('journals score: a row per point in csv, tsv and jsonl; the whole object in json', async () => {
    const score = await mock.client().journals.score(4);
    const rows = score.history.map((point) => ({ journal_id: 4, date: point.date, score: point.score }));
    const asCsv = await run(['journals', 'score', '4', '--format', 'csv'], { url: mock.server.url });
    expect(csv(asCsv.stdout)).toEqual(
      rows.map((row) => ({ journal_id: '4', date: row.date, score: String(row.score) })),
    );
    const asJsonl = await run(['journals', 'score', '4', '--format', 'jsonl'], { url: mock.server.url });
    expect(jsonLines(asJsonl.stdout)).toEqual(rows);
    const asTsv = await run(['journals', 'score', '4', '--format', 'tsv', '--fields', 'date,score'], {
      url: mock.server.url,
    });
    expect(asTsv.stdout.split('\n')[0]).toBe('date\tscore');
    const asJson = await run(['journals', 'score', '4', '--format', 'json'], { url: mock.server.url });
    expect(JSON.parse(asJson.stdout)).toEqual(score);
  });

  it("journals score: --fields naming the other output's field is a usage error, before any request", async () => {
    real.serve((_req, res) => {
      res.writeHead(500).end();
    });
    const cases = [
      {
        args: ['4', '--format', 'json', '--fields', 'date'],
        says: '--fields date: json and the table write the record, with the fields current, quartile, history.',
      },
      {
        args: ['4', '--format', 'jsonl', '--fields', 'current,score'],
        says: '--fields current: jsonl writes score points as rows, with the fields journal_id, date, score.',
      },
      {
        args: ['4', '5', '--format', 'json', '--fields', 'journal_id,history.date,score'],
        says: '--fields score: json and the table write the record, with the fields journal_id, current',
      },
    ];
    for (const { args, says } of cases) {
      const result = await run(['journals', 'score', ...args], { url: real.base });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(says);
    }
    expect(real.hits).toBe(0);
  });
});

describe('cells a spreadsheet would run', () => {
  const papers = [
    {
      id: 1,
      title: '=HYPERLINK("https://evil.example","x")',
      authors: '+A',
      doi: '10.1/a',
      year: 2024,
      citations: -3,
      oa: true,
    },
    { id: 2, title: '@SUM(A1)', authors: '-B', doi: '10.1/b', year: 2024, citations: 4, oa: false },
  ];

  it('are written as text by default, as they are with --raw-cells; numbers stay numbers', async () => {
    real.serve((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ data: papers, total: papers.length }));
    });
    const env = { url: real.base };
    const safe = csv((await run(['papers', 'search', '--format', 'csv'], env)).stdout);
    expect(safe.map((row) => [row.title, row.authors, row.citations])).toEqual([
      [`'${papers[0]!.title}`, "'+A", '-3'],
      ["'@SUM(A1)", "'-B", '4'],
    ]);
    const safeTsv = tsv((await run(['papers', 'search', '--format', 'tsv'], env)).stdout);
    expect(safeTsv[1]!.title).toBe("'@SUM(A1)");
    const raw = csv((await run(['papers', 'search', '--format', 'csv', '--raw-cells'], env)).stdout);
    expect(raw.map((row) => row.title)).toEqual(papers.map((paper) => paper.title));
  });
});

describe('get-many reads DOIs as people have them', () => {
  it("takes the tool's own csv, resolver URLs and a doi header; --failed lists the failures as tsv", async () => {
    const folder = scratch();
    const list = join(folder, 'reefs.csv');
    const found = await run(
      ['papers', 'search', 'coral', '--limit', '5', '--fields', 'title,doi', '-o', list],
      {
        url: mock.server.url,
      },
    );
    expect(found.code, found.stderr).toBe(0);
    const dois = csv(readFileSync(list, 'utf8')).map((row) => row.doi!);
    const papers = await run(['papers', 'get-many', '--input', list], { url: mock.server.url });
    expect(papers.code, papers.stderr).toBe(0);
    expect(jsonLines(papers.stdout).map((paper) => (paper as { doi: string }).doi)).toEqual(dois);

    // As arguments too: resolver URLs and doi: prefixes, read as the bare DOI.
    const args = await run(['papers', 'get-many', `https://doi.org/${dois[0]}`, `doi:${dois[1]}`], {
      url: mock.server.url,
    });
    expect(args.code, args.stderr).toBe(0);
    expect(jsonLines(args.stdout).map((paper) => (paper as { doi: string }).doi)).toEqual(dois.slice(0, 2));

    const mixed = join(folder, 'mixed.txt');
    writeFileSync(mixed, `DOI\nhttps://doi.org/${dois[0]}\ndoi:${dois[1]}\n10.9999/missing\n`);
    const failed = join(folder, 'failed.tsv');
    const result = await run(['papers', 'get-many', '--input', mixed, '--failed', failed], {
      url: mock.server.url,
    });
    expect(result.code).toBe(3);
    expect(jsonLines(result.stdout)).toHaveLength(2);
    expect(tsv(readFileSync(failed, 'utf8'))).toEqual([
      { doi: '10.9999/missing', error: 'NotFoundError', message: expect.stringContaining('10.9999/missing') },
    ]);
  });

  it('--input-column names the column; a missing one is a usage error', async () => {
    const folder = scratch();
    const [paper] = (await mock.client().papers.search({ per_page: 1 })).data;
    const input = join(folder, 'refs.tsv');
    writeFileSync(input, `title\tref\nx\t${paper!.doi}\n`);
    const ok = await run(['papers', 'get-many', '--input', input, '--input-column', 'ref'], {
      url: mock.server.url,
    });
    expect(ok.code, ok.stderr).toBe(0);
    const missing = await run(['papers', 'get-many', '--input', input], { url: mock.server.url });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      'has no column doi (its columns: title, ref); name one with --input-column',
    );
  });
});

describe('search as people type it, help, colour', () => {
  it('positional words join into q; --query is --q', async () => {
    const { data } = await mock.client().papers.search({ q: 'coral reefs', per_page: 5 });
    const words = await run(['-q', 'papers', 'search', 'coral', 'reefs', '--per-page', '5'], {
      url: mock.server.url,
    });
    expect(words.code, words.stderr).toBe(0);
    expect(jsonLines(words.stdout)).toEqual(data);
    const query = await run(['papers', 'search', '--query', 'coral reefs', '--per-page', '5'], {
      url: mock.server.url,
    });
    expect(jsonLines(query.stdout)).toEqual(data);
    const both = await run(['papers', 'search', '--q', 'a', '--query', 'b'], { url: mock.server.url });
    expect(both.code).toBe(2);
  });

  it("an empty term (a script's unset variable) is refused, not dropped into a search of every paper", async () => {
    const asked = mock.api.requests.length;
    for (const [command, option, term] of [
      ['papers search', '--q', ''],
      ['papers search', '--query', '   '],
      ['authors list', '--q', ''],
    ] as const) {
      const result = await run([...command.split(' '), option, term, '--all'], { url: mock.server.url });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `error: ${option} is empty: give the search term (${option} climate), or leave it out\n`,
      );
    }
    for (const words of [[''], [' '], ['--', '']]) {
      const result = await run(['papers', 'search', '--all', ...words], { url: mock.server.url });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: the search words are empty/);
    }
    expect(mock.api.requests.length).toBe(asked);
  });

  it('help <command> <subcommand> prints that subcommand', async () => {
    const result = await run(['help', 'papers', 'search'], { key: undefined });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: scholarly-metrics papers search [options] [words...]');
    const unknown = await run(['help', 'papers', 'serch'], { key: undefined });
    expect(unknown.code).toBe(2);
  });

  it('colour: headers bold on a terminal; never with NO_COLOR alone or --color never, nor in csv', async () => {
    const terminal = { stdout: true, columns: 120 };
    const options = { url: mock.server.url, terminal };
    const colours = async (args: string[], env: Record<string, string> = {}, onTerminal = true) =>
      (
        await run(['journals', 'list', ...args], {
          ...options,
          env,
          terminal: { ...terminal, stdout: onTerminal },
        })
      ).stdout;
    const bold = '\u001b[1m';
    expect(await colours(['--color', 'always'])).toMatch(new RegExp(`^${'\\u001b'}\\[1m *ID`));
    expect((await colours([], { FORCE_COLOR: '1' })).startsWith(bold)).toBe(true);
    expect((await colours(['--color', 'always'], { NO_COLOR: '1' })).startsWith(bold)).toBe(true);
    // FORCE_COLOR wins over NO_COLOR, in the order force-color.org's implementation checks them.
    expect((await colours([], { NO_COLOR: '1', FORCE_COLOR: '1' })).startsWith(bold)).toBe(true);
    expect(await colours([], { NO_COLOR: '1' })).not.toContain('\u001b[');
    expect(await colours(['--color', 'never'], { FORCE_COLOR: '1' })).not.toContain('\u001b[');
    expect(await colours(['--format', 'csv'], { FORCE_COLOR: '1' }, false)).not.toContain('\u001b[');
  });
});

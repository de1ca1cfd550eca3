// `sync DB papers` takes the search options `papers search` takes, read the same way; it needs a
// search (a term, a year or open access) to store, as one without walks every paper the API has.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../../support.js';
import { run } from '../helpers.js';
import { sqliteRows } from '../output/sqlite-rows.js';
import { scratch } from '../resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 40, authors: 5 } });
const sync = (file: string, ...args: string[]) => run(['sync', file, ...args], { url: mock.server.url });
const stored = (file: string) => sqliteRows(file, 'SELECT what, params FROM sync_queries');

describe('sync, the papers search', () => {
  it('--query stores the same search as --q', async () => {
    const [byQ, byQuery] = [join(scratch(), 'q.sqlite'), join(scratch(), 'query.sqlite')];
    expect((await sync(byQ, 'papers', '--q', 'coral reefs', '--year', '2024')).code).toBe(0);
    expect((await sync(byQuery, 'papers', '--query', 'coral reefs', '--year', '2024')).code).toBe(0);
    expect(stored(byQ)).toEqual([{ what: 'papers', params: expect.stringContaining('"q":"coral reefs"') }]);
    expect(stored(byQuery)).toEqual(stored(byQ));
  });

  it('refuses --q and --query together, as papers search does (exit 2)', async () => {
    const result = await sync(join(scratch(), 'both.sqlite'), 'papers', '--q', 'a', '--query', 'b');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--q and --query are the same option: give one');
  });

  it('refuses a search option without papers, naming the search (exit 2)', async () => {
    const result = await sync(join(scratch(), 'journals.sqlite'), 'journals', '--query', 'a');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('are a papers search: sync DB papers --q …');
  });

  it.each([
    ['no search option', []],
    ['only --sort and --per-page', ['--sort', '-citations', '--per-page', '10']],
  ])('refuses papers with %s (exit 2): nothing stored, no file made, no request', async (_, options) => {
    const file = join(scratch(), 'all.sqlite');
    const before = mock.api.requests.length;
    const result = await sync(file, 'papers', ...options);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'sync DB papers needs a search to store: --q (or --query), --year or --oa',
    );
    expect(existsSync(file)).toBe(false);
    expect(mock.api.requests.length).toBe(before);
  });

  it.each([
    ['--q', ''],
    ['--query', ' '],
  ])('refuses an empty %s (an unset variable), with a filter too (exit 2)', async (option, term) => {
    const file = join(scratch(), 'empty-term.sqlite');
    const before = mock.api.requests.length;
    const result = await sync(file, 'papers', option, term, '--year', '2024');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${option} is empty: give the search term`);
    expect(existsSync(file)).toBe(false);
    expect(mock.api.requests.length).toBe(before);
  });

  it('takes a filter alone as a search: --year stores its papers', async () => {
    const file = join(scratch(), 'year.sqlite');
    const result = await sync(file, 'papers', '--year', '2024');
    expect(result.code, result.stderr).toBe(0);
    expect(stored(file)).toEqual([{ what: 'papers', params: '{"year":2024}' }]);
  });
});

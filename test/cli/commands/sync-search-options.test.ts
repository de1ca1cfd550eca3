// `sync DB papers` takes the search options `papers search` takes, read the same way.
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
});

/**
 * A server that echoes the key into its answers (a hostile one, or a proxy's bug): no output of the
 * command line holds it, whatever the format, file or terminal, database or `sync`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOCK_API_KEY } from '../../src/testing/index.js';
import { useRealServer } from '../support.js';
import { run } from './helpers.js';
import { parquetRows } from './output/hyparquet.js';
import { sqliteRows } from './output/sqlite-rows.js';
import { scratch } from './resume.js';

const server = useRealServer();

/** Every answer holds what the request's Authorization header said, in a text field. */
function serveEcho() {
  server.serve((req, res) => {
    const echo = `seen: ${req.headers.authorization}`;
    const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/api\/v1/, '');
    const bodies: Record<string, unknown> = {
      '/journals/1': { id: 1, name: echo, metric_score: 5, quartile: 'Q1', description: echo, oa: true },
      '/subjects': [{ id: 1, name: echo, slug: 's', journals: 1, papers: 1, citations: 1 }],
      '/papers': { data: [{ id: 1, title: echo, doi: '10.1000/a', year: 2024 }], total: 1 },
    };
    const body = bodies[path];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { message: 'no' }));
  });
}

const expectRedacted = (text: string) => {
  expect(text).not.toContain(MOCK_API_KEY);
  expect(text).toContain('seen: Bearer [redacted]');
};

describe('an answer that holds a short key by chance', () => {
  it('keeps its words: a key under 12 characters is not looked for in answers, where ordinary text holds it', async () => {
    server.serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [{ id: 1, title: 'Coral reefs', doi: '10.1000/a' }], total: 1 }));
    });
    const file = join(scratch(), 'papers.jsonl');
    const result = await run(['papers', 'search', '--q', 'x', '-o', file], {
      url: server.base,
      key: 'coral',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('"title":"Coral reefs"');
  });
});

describe('an answer echoing the key', () => {
  it('is written without it, to every text format and to the terminal', async () => {
    serveEcho();
    const folder = scratch();
    for (const format of ['json', 'jsonl', 'csv', 'tsv']) {
      const file = join(folder, `journal.${format}`);
      const result = await run(['journals', 'get', '1', '-o', file], { url: server.base });
      expect(result.code, result.stderr).toBe(0);
      expectRedacted(readFileSync(file, 'utf8'));
    }
    const shown = await run(['journals', 'get', '1'], { url: server.base, terminal: { stdout: true } });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).not.toContain(MOCK_API_KEY);
  });

  it('is written without it into SQLite and Parquet, by a command, a harvest and sync', async () => {
    serveEcho();
    const folder = scratch();
    const database = join(folder, 'metrics.sqlite');
    const ok = async (args: string[]) => {
      const result = await run(args, { url: server.base });
      expect(result.code, result.stderr).toBe(0);
    };
    await ok(['subjects', 'list', '-o', database]);
    await ok(['papers', 'search', '--q', 'x', '--all', '-o', join(folder, 'papers.parquet')]);
    await ok(['sync', join(folder, 'synced.sqlite'), 'papers', '--q', 'x']);
    const texts = [
      JSON.stringify(sqliteRows(database, 'SELECT name FROM subjects')),
      JSON.stringify(await parquetRows(join(folder, 'papers.parquet'), ['title'])),
      JSON.stringify(sqliteRows(join(folder, 'synced.sqlite'), 'SELECT title FROM papers')),
    ];
    for (const text of texts) expectRedacted(text);
  });
});

describe('an answer naming a field after the key', () => {
  it('leaves it out of every file a harvest writes, its checkpoint included', async () => {
    server.serve((req, res) => {
      const key = (req.headers.authorization ?? '').replace('Bearer ', '');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [{ id: 1, title: 't', [key]: 'x' }], total: 1 }));
    });
    const folder = scratch();
    for (const format of ['csv', 'tsv']) {
      const file = join(folder, `papers.${format}`);
      const result = await run(['papers', 'search', '--q', 'x', '-o', file], { url: server.base });
      expect(result.code, result.stderr).toBe(0);
      const written = readdirSync(folder).filter((name) => name.startsWith(`papers.${format}`));
      expect(written.length).toBeGreaterThan(1);
      for (const name of written)
        expect(readFileSync(join(folder, name), 'utf8')).not.toContain(MOCK_API_KEY);
    }
  });
});

// `sync` and its database: one sync of it at a time, one another program is writing, one with nothing
// stored, and its name escaped in what is said of it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { run, start } from '../helpers.js';
import { clipboardName, expectNameEscaped } from '../output/hostile.js';
import { lockedReport, runWhileLocked } from '../output/locked-database.js';
import { scratch } from '../resume.js';
import { contents, runs, useSyncServer } from './sync-setup.js';

const { mock, synced } = useSyncServer();

describe('sync', { timeout: 120_000 }, () => {
  it('a second sync of a database while one runs ends at once (exit 1); the first unharmed', async () => {
    const reference = contents(await synced(['journals']));
    const file = join(scratch(), 'metrics.sqlite');
    // The first holds at its first journal's profile until the second has ended.
    const handle = mock.api.handle.bind(mock.api);
    let held = (_: unknown) => {};
    const hold = new Promise((resolve) => {
      held = resolve;
    });
    let reached = (_: unknown) => {};
    const atProfile = new Promise((resolve) => {
      reached = resolve;
    });
    mock.api.handle = async (request) => {
      if (/\/journals\/\d+$/.test(new URL(request.url).pathname)) {
        reached(undefined);
        await hold;
      }
      return handle(request);
    };
    try {
      const first = start(['sync', file, 'journals'], { url: mock.server.url });
      await atProfile;
      const second = await run(['sync', file, 'journals'], { url: mock.server.url });
      held(undefined);
      expect(second.code).toBe(1);
      expect(second.stderr).toBe(
        `error: DatabaseError: another sync of ${file} is running: this one ends without asking for anything (run it again once that one is done)\n`,
      );
      const ended = await first.exited;
      expect(ended.code, ended.stderr).toBe(0);
    } finally {
      held(undefined);
      mock.api.handle = handle;
    }
    expect(contents(file)).toEqual(reference);
    expect(runs(file).map((each) => each.stopped_by)).toEqual(['done']);
  });

  it('a database another program is writing: a DatabaseError naming it (exit 1), no run recorded', async () => {
    const file = await synced(['journals']);
    const locked = await runWhileLocked(file, ['sync', file], { url: mock.server.url });
    expect(locked.code).toBe(1);
    expect(locked.stderr).toBe(lockedReport(file));
    expect(runs(file).map((each) => each.stopped_by)).toEqual(['done']);
    const again = await run(['sync', file], { url: mock.server.url });
    expect(again.code, again.stderr).toBe(0);
  });

  it('refuses a search without papers, and a database with nothing stored (exit 2)', async () => {
    const file = join(scratch(), 'empty.sqlite');
    const stray = await run(['sync', file, 'journals', '--q', 'x'], { url: mock.server.url });
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('a papers search');
    const nothing = await run(['sync', file], { url: mock.server.url });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('holds no query to refresh');
    // A misspelt name is not made into a database, nor given a lock.
    expect(readdirSync(dirname(file)).filter((name) => name.startsWith('empty.sqlite'))).toEqual([]);
    const stored = await synced(['journals']);
    const emptied = new DatabaseSync(stored);
    emptied.exec('DELETE FROM sync_runs; DELETE FROM sync_queries');
    emptied.close();
    const none = await run(['sync', stored], { url: mock.server.url });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('holds no query to refresh');
  });

  it.each([
    ['another command wrote', 'wal'],
    ['another program made', 'delete'],
  ])('refuses `sync DB` of a database %s, holding no query, leaving it as it was', async (_, mode) => {
    const file = join(scratch(), 'other.sqlite');
    if (mode === 'wal') {
      const listed = await run(['journals', 'list', '-o', file], { url: mock.server.url });
      expect(listed.code, listed.stderr).toBe(0);
    } else {
      const made = new DatabaseSync(file);
      made.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)');
      made.close();
    }
    const files = () => readdirSync(dirname(file)).sort();
    const [bytes, listing] = [readFileSync(file), files()];
    const refused = await run(['sync', file], { url: mock.server.url });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('holds no query to refresh');
    // No sync table, no lock file, and its journal mode kept: the file is byte for byte the same.
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(files()).toEqual(listing);
  });

  it('echoes the database name escaped in its messages, whatever it holds', async () => {
    const empty = join(scratch(), clipboardName);
    const nothing = await run(['sync', empty], { url: mock.server.url });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('holds no query to refresh');
    expectNameEscaped(nothing.stderr);
    const unopenable = join(scratch(), clipboardName, 'metrics.sqlite');
    const refused = await run(['sync', unopenable, 'journals'], { url: mock.server.url });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('as a SQLite database');
    expectNameEscaped(refused.stderr);
  });
});

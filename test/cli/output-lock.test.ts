/**
 * Two harvests writing one `--output` at once would tear it: the second is refused before it asks
 * for anything, and the first ends whole. The lock is a file beside the output, removed at the end.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { outputLockPath } from '../../src/cli/file-lock.js';
import { gate, useMockServer } from '../support.js';
import { jsonLines, run } from './helpers.js';
import { scratch } from './resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 30, authors: 5 } });
/** What each `hold` replaced, put back after the test, the last first. */
const restores: Array<() => void> = [];

afterEach(() => {
  for (let restore = restores.pop(); restore !== undefined; restore = restores.pop()) restore();
});

/**
 * Holds the requests `matches` until the gate opens; `reached` once the first of them comes. Holds
 * stack: each passes on what it does not match to the one before.
 */
function hold(matches: (url: URL) => boolean) {
  const held = gate();
  const reached = gate();
  const handle = mock.api.handle;
  restores.push(() => {
    mock.api.handle = handle;
  });
  mock.api.handle = async (request) => {
    if (matches(new URL(request.url))) {
      reached.open();
      await held.promise;
    }
    return handle.call(mock.api, request);
  };
  return { open: held.open, reached: reached.promise };
}

const harvest = (file: string, ...more: string[]) => [
  ...['papers', 'search', '--all', '--per-page', '10'],
  ...['-o', file, ...more],
];

describe('one harvest at a time into a file', () => {
  it.each([
    ['jsonl', []],
    ['csv, the second with --overwrite', ['--overwrite']],
    ['parquet, the second with --resume', ['--resume']],
  ])('%s: a second harvest is refused (exit 1), nothing asked; the first ends whole', async (kind, more) => {
    const file = join(scratch(), `journals.${kind.split(',')[0]}`);
    const held = hold((url) => url.searchParams.get('page') === '2');
    const first = run(harvest(file), { url: mock.server.url });
    await held.reached;
    expect(existsSync(outputLockPath(file))).toBe(true);
    const asked = mock.api.requests.length;
    const second = await run(harvest(file, ...more), { url: mock.server.url });
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(
      `error: OutputFileError: another run is writing --output ${file}: this one ends without asking for anything (run it again once that one is done)\n`,
    );
    expect(mock.api.requests.length).toBe(asked);
    held.open();
    const done = await first;
    expect(done.code, done.stderr).toBe(0);
    expect(existsSync(outputLockPath(file))).toBe(false);
    if (kind === 'jsonl') expect(jsonLines(readFileSync(file, 'utf8'))).toHaveLength(30);
    // Free again: the same command runs.
    expect((await run(harvest(file, '--overwrite'), { url: mock.server.url })).code).toBe(0);
  });

  it('a one-request command is refused too while a harvest writes the file, before its first checkpoint', async () => {
    const file = join(scratch(), 'busy.jsonl');
    const held = hold((url) => url.searchParams.get('page') === '1');
    const first = run(harvest(file), { url: mock.server.url });
    await held.reached;
    const one = await run(['journals', 'get', '1', '-o', file], { url: mock.server.url });
    expect(one.code).toBe(1);
    expect(one.stderr).toContain(`another run is writing --output ${file}`);
    held.open();
    expect((await first).code).toBe(0);
    expect(jsonLines(readFileSync(file, 'utf8'))).toHaveLength(30);
  });

  it('a one-request command whose answer comes while a harvest writes the file is refused then', async () => {
    const file = join(scratch(), 'race.csv');
    const journals = hold((url) => url.pathname.endsWith('/journals'));
    const page2 = hold((url) => url.searchParams.get('page') === '2');
    const one = run(['journals', 'list', '-o', file], { url: mock.server.url });
    await journals.reached;
    const harvesting = run(harvest(file), { url: mock.server.url });
    await page2.reached;
    journals.open();
    const refused = await one;
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`another run is writing --output ${file}`);
    page2.open();
    expect((await harvesting).code).toBe(0);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(31);
    expect(lines[0]).toContain('doi');
  });

  it('a database is shared: another command’s harvest into it runs beside the first, as sync does', async () => {
    const file = join(scratch(), 'shared.sqlite');
    const held = hold((url) => url.searchParams.get('page') === '2');
    const first = run(harvest(file), { url: mock.server.url });
    await held.reached;
    const other = await run(['authors', 'list', '--all', '-o', file], { url: mock.server.url });
    expect(other.code, other.stderr).toBe(0);
    held.open();
    expect((await first).code).toBe(0);
  });

  it('a lock file left by a run killed outright holds nothing: the next run takes it, and removes it', async () => {
    const file = join(scratch(), 'killed.jsonl');
    writeFileSync(outputLockPath(file), '');
    const result = await run(harvest(file), { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(outputLockPath(file))).toBe(false);
  });

  it('a file of the same name that is not empty is no lock of ours: it stays as it was', async () => {
    const file = join(scratch(), 'theirs.jsonl');
    writeFileSync(outputLockPath(file), 'a file of the user’s\n');
    const result = await run(harvest(file), { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(outputLockPath(file), 'utf8')).toBe('a file of the user’s\n');
  });

  it('a failed harvest lets the file go', async () => {
    const file = join(scratch(), 'failed.jsonl');
    mock.api.faults.next({ status: 429, headers: { 'retry-after': '7200' } });
    const failed = await run(harvest(file), { url: mock.server.url });
    expect(failed.code, failed.stderr).toBe(75);
    expect(existsSync(outputLockPath(file))).toBe(false);
    expect((await run(harvest(file, '--resume'), { url: mock.server.url })).code).toBe(0);
  });
});

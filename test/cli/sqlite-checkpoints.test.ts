/**
 * The checkpoints of paged runs into one SQLite database: each command keeps its own, so one
 * command's unfinished run neither blocks another command's run into the database nor is replaced
 * by its `--overwrite`, and resumes with `--resume` once the others have written: every record once.
 * The same command is still refused without `--resume`.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support.js';
import { run, runStoppedAt } from './helpers.js';
import { sqliteRows } from './output/sqlite-rows.js';
import { scratch } from './resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 100, authors: 100 } });
const paging = ['--all', '--prefetch', '0'];
const search = ['papers', 'search', '--per-page', '5', ...paging];
// Twenty authors a page: the API takes no page size for them.
const authors = ['authors', 'list', ...paging];
const journalPapers = ['journals', 'papers', '2', '--per-page', '5', ...paging];

const query = sqliteRows;

const papersOf = (path: string) => query(path, 'SELECT * FROM papers ORDER BY id');

async function ok(args: string[]) {
  const result = await run(args, { url: mock.server.url });
  expect(result.code, result.stderr).toBe(0);
  return result;
}

/**
 * Runs `args` with a clock standing still, stopped by Ctrl-C as page `page` of `path` is asked for:
 * the pages before it written, the checkpoint saved as the run closes.
 */
async function stoppedAt(args: string[], path: string, page: number) {
  const pageOf = (url: URL) =>
    url.pathname.endsWith(path) && Number(url.searchParams.get('page') ?? 1) === page;
  const result = await runStoppedAt(mock.server, args, pageOf);
  expect(result.code, result.stderr).toBe(130);
}

/** The pages of `path` the mock was asked for since its last reset. */
function pagesAsked(path: string): number[] {
  return mock.api.requests
    .map((request) => new URL(request.path, 'http://mock'))
    .filter((url) => url.pathname.endsWith(path))
    .map((url) => Number(url.searchParams.get('page') ?? 1));
}

/** The checkpoints beside the database `file`, read. */
function checkpointsOf(file: string): { command: string[]; complete: boolean; position: number }[] {
  const folder = dirname(file);
  return readdirSync(folder)
    .filter((name) => name.startsWith(`${basename(file)}.`) && name.endsWith('.checkpoint.json'))
    .map((name) => JSON.parse(readFileSync(join(folder, name), 'utf8')));
}

describe('paged runs of several commands into one SQLite database', { timeout: 120_000 }, () => {
  it("others' runs (--overwrite too) pass an unfinished one and leave it: it resumes, every record once", async () => {
    const folder = scratch();
    const whole = join(folder, 'whole.sqlite');
    const theirs = join(folder, 'journal.sqlite');
    const file = join(folder, 'm.sqlite');
    await ok([...search, '-o', whole]);
    await ok([...journalPapers, '-o', theirs]);
    expect(papersOf(theirs).length).toBeGreaterThan(0);
    await stoppedAt([...search, '-o', file], '/papers', 4);
    expect(query(file, 'SELECT count(*) AS n FROM papers')).toEqual([{ n: 15 }]);

    await ok([...authors, '-o', file]);
    await ok([...journalPapers, '-o', file]);
    await ok([...authors, '-o', file, '--overwrite']);
    expect(query(file, 'SELECT count(*) AS n FROM authors')).toEqual([{ n: 100 }]);

    mock.api.reset();
    await ok([...search, '-o', file, '--resume']);
    // From the page after the last one written, to the end, each once.
    const pages = papersOf(whole).length / 5;
    expect(pagesAsked('/papers')).toEqual(Array.from({ length: pages - 3 }, (_, at) => at + 4));
    const expected = new Map([...papersOf(theirs), ...papersOf(whole)].map((row) => [row.id, row]));
    expect(papersOf(file)).toEqual([...expected.values()].sort((a, b) => Number(a.id) - Number(b.id)));
    const checkpoints = checkpointsOf(file);
    expect(checkpoints).toHaveLength(3);
    expect(checkpoints.every((checkpoint) => checkpoint.complete)).toBe(true);
  });

  it('the same command is refused without --resume; its --overwrite pages again and leaves the others', async () => {
    const file = join(scratch(), 'm.sqlite');
    await stoppedAt([...search, '-o', file], '/papers', 4);
    await stoppedAt([...authors, '-o', file], '/authors', 3);
    const before = checkpointsOf(file);
    expect(before.map((checkpoint) => checkpoint.position).sort()).toEqual([3, 4]);

    mock.api.reset();
    const refused = await run([...search, '-o', file], { url: mock.server.url });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `error: ${file} holds an unfinished run of this command: ` +
        'add --resume to continue, or --overwrite to start again\n',
    );
    expect(mock.api.requests).toHaveLength(0);
    expect(checkpointsOf(file)).toEqual(before);

    await ok([...search, '-o', file, '--overwrite']);
    expect(pagesAsked('/papers')[0]).toBe(1);
    expect(existsSync(`${file}.checkpoint.json`)).toBe(false);
    const [searched, listed] = [search, authors].map((command) =>
      checkpointsOf(file).find((checkpoint) => checkpoint.command[0] === command[0]),
    );
    expect(searched).toMatchObject({ complete: true });
    expect(listed).toEqual(before.find((checkpoint) => checkpoint.command[0] === 'authors'));

    mock.api.reset();
    await ok([...authors, '-o', file, '--resume']);
    expect(pagesAsked('/authors')).toEqual([3, 4, 5]);
    expect(query(file, 'SELECT count(*) AS n FROM authors')).toEqual([{ n: 100 }]);
  });

  it('a resume into a database that is gone is refused (exit 2), as a text file is: its pages would be missing', async () => {
    const file = join(scratch(), 'm.sqlite');
    await stoppedAt([...search, '-o', file], '/papers', 4);
    const [checkpoint] = checkpointsOf(file);
    for (const name of [file, `${file}-wal`, `${file}-shm`]) rmSync(name, { force: true });

    mock.api.reset();
    const gone = await run([...search, '-o', file, '--resume'], { url: mock.server.url });
    expect(gone.code).toBe(2);
    expect(gone.stderr).toMatch(
      /^error: .*\.checkpoint\.json is not a checkpoint this command can resume \(.*m\.sqlite is gone\)/,
    );
    expect(mock.api.requests).toHaveLength(0);
    expect(existsSync(file)).toBe(false);
    expect(checkpointsOf(file)).toEqual([checkpoint]);
    // --overwrite starts it again.
    await ok([...search, '-o', file, '--overwrite']);
    expect(query(file, 'SELECT count(*) AS n FROM papers')).toEqual([{ n: 100 }]);
  });
});

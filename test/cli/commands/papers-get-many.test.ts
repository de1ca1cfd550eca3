import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOCK_DOIS } from '../../../src/testing/index.js';
import { useMockServer } from '../../support.js';
import { jsonLines, run, start } from '../helpers.js';
import { clipboardName, clipboardNameShown, expectNameEscaped } from '../output/hostile.js';
import { asCells, csvRecords } from '../records.js';
import { lineCount, linesReach, scratch } from '../resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 80, authors: 20 } });
// Slow answers, so that a run can be stopped halfway by the lines already in its file: slow enough
// to outlast its first second, as the file takes its records at each checkpoint (every second) or chunk.
const slow = useMockServer({ sizes: { journals: 5, papers: 80, authors: 20 }, faults: { latencyMs: 60 } });

async function papers(count: number) {
  const all = await mock.client().papers.search({ per_page: 100 }).toArray({ limit: count });
  return all.map((paper) => paper.doi).filter((doi): doi is string => doi !== undefined);
}

describe('scholarly-metrics papers get-many', () => {
  it('looks up the DOIs given as arguments, in their order', async () => {
    const dois = [...MOCK_DOIS];
    const expected = await Promise.all(dois.map((doi) => mock.client().papers.get(doi)));
    const result = await run(['papers', 'get-many', ...dois], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(jsonLines(result.stdout)).toEqual(expected);
  });

  it('reads DOIs from stdin with --input -, one a line, and writes CSV', async () => {
    const dois = await papers(30);
    const expected = await Promise.all(dois.map((doi) => mock.client().papers.get(doi)));
    const input = `${dois.join('\n')}\n\n`;
    const result = await run(
      ['papers', 'get-many', '--input', '-', '--format', 'csv', '--concurrency', '3'],
      {
        url: mock.server.url,
        input,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const rows = csvRecords(result.stdout);
    expect(rows).toEqual(expected.map((paper) => asCells(paper, Object.keys(rows[0]!))));
  });

  it('writes the papers found, lists the DOIs that failed on stderr, and exits 3', async () => {
    const dois = [MOCK_DOIS[0]!, '10.9999/no-such-paper', MOCK_DOIS[1]!];
    const result = await run(['papers', 'get-many', ...dois], { url: mock.server.url });
    expect(result.code).toBe(3);
    expect(jsonLines(result.stdout).map((paper) => (paper as { doi: string }).doi)).toEqual([
      dois[0],
      dois[2],
    ]);
    expect(result.stderr).toContain('10.9999/no-such-paper: NotFoundError: ');
    expect(result.stderr).toContain('error: LookupsFailedError: 1 of 3 DOIs failed');
  });

  it('refuses no DOIs, both sources at once, and a concurrency out of range (exit 2)', async () => {
    expect((await run(['papers', 'get-many'], { url: mock.server.url })).code).toBe(2);
    const both = await run(['papers', 'get-many', MOCK_DOIS[0]!, '--input', '-'], { url: mock.server.url });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give DOIs as arguments or --input, not both');
    const wide = await run(['papers', 'get-many', MOCK_DOIS[0]!, '--concurrency', '17'], {
      url: mock.server.url,
    });
    expect(wide.code).toBe(2);
    expect(wide.stderr).toContain('expected a whole number from 1 to 16');
  });

  it('shows an example in --help', async () => {
    expect((await run(['papers', 'get-many', '--help'])).stdout).toContain(
      '$ scholarly-metrics papers get-many --input dois.txt --format csv',
    );
  });
});

describe('papers get-many with --output --resume', { timeout: 120_000 }, () => {
  it.each(['SIGKILL', 'SIGINT'] as const)('continues after %s: every DOI once, in order', async (signal) => {
    const dois = await papers(64);
    const folder = scratch();
    const input = join(folder, 'dois.txt');
    writeFileSync(input, `${dois.join('\n')}\n`);
    const whole = join(folder, 'whole.jsonl');
    const args = ['papers', 'get-many', '--input', input, '--concurrency', '2'];
    expect((await run([...args, '--output', whole], { url: slow.server.url })).code).toBe(0);
    const file = join(folder, 'out.jsonl');
    const first = start([...args, '--output', file, '--resume'], { url: slow.server.url });
    await linesReach(file, 20, first.exited);
    first.child.kill(signal);
    const stopped = await first.exited;
    if (signal === 'SIGINT') expect(stopped.code).toBe(130);
    // Stopped halfway, not after the end.
    expect(lineCount(file)).toBeLessThan(dois.length);
    const second = await run([...args, '--output', file, '--resume'], { url: slow.server.url });
    expect(second.code, second.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(whole, 'utf8'));
    expect(jsonLines(readFileSync(file, 'utf8')).map((paper) => (paper as { doi: string }).doi)).toEqual(
      dois,
    );
  });
});

describe('papers get-many when the network fails', () => {
  it('ends the run (exit 1), calls no DOI failed, and --resume asks for the rest', async () => {
    const dois = await papers(12);
    const folder = scratch();
    const file = join(folder, 'out.jsonl');
    const args = ['papers', 'get-many', ...dois, '--concurrency', '2', '--output', file];
    // Every connection after the first batch's (2 × 4 lookups) drops, through the SDK's retries.
    mock.api.faults.next({ delayMs: 0, times: 8 });
    mock.api.faults.next({ reset: true, times: 100 });
    const stopped = await run(args, { url: mock.server.url });
    mock.api.faults.clear();
    expect(stopped.code, stopped.stderr).toBe(1);
    expect(stopped.stderr).toMatch(/^error: ConnectionError: /m);
    expect(stopped.stderr).not.toContain('LookupsFailedError');
    expect(lineCount(file)).toBe(8);
    const resumed = await run([...args, '--resume'], { url: mock.server.url });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(jsonLines(readFileSync(file, 'utf8')).map((paper) => (paper as { doi: string }).doi)).toEqual(
      dois,
    );
  });
});

describe('papers get-many names its files escaped', () => {
  it("--input FILE it cannot read: exit 2, the name and Node's words quoting it escaped", async () => {
    const input = join(scratch(), clipboardName);
    const result = await run(['papers', 'get-many', '--input', input], { url: mock.server.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: cannot read --input .*: ENOENT: no such file or directory, open '.*'\n$/,
    );
    expect(result.stderr.split(clipboardNameShown)).toHaveLength(3);
    expectNameEscaped(result.stderr);
  });

  it('--failed FILE it cannot write: exit 2, escaped alike', async () => {
    const failed = join(scratch(), clipboardName, 'failed.tsv');
    const result = await run(['papers', 'get-many', MOCK_DOIS[0]!, '--failed', failed], {
      url: mock.server.url,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: cannot write --failed .*: ENOENT: no such file or directory, open '.*'\n$/,
    );
    expect(result.stderr.split(clipboardNameShown)).toHaveLength(3);
    expectNameEscaped(result.stderr);
  });
});

describe('papers get-many --failed naming the file of --output', () => {
  const oneFile = (failed: string) =>
    `--failed and --output name one file (${failed}): give --failed a file of its own`;
  const checkpointOf = (failed: string, output: string) =>
    `--failed ${failed} is the checkpoint of --output ${output}: give --failed a file of its own`;
  it.each([
    ['the output itself', 'out.jsonl', (out: string) => out, oneFile],
    ['the output by another path', 'out.jsonl', (out: string) => relative(process.cwd(), out), oneFile],
    ["the output's checkpoint", 'out.jsonl', (out: string) => `${out}.checkpoint.json`, checkpointOf],
    ["a database's checkpoint", 'm.db', (out: string) => `${out}.0123456789ab.checkpoint.json`, checkpointOf],
  ])('%s: exit 2 naming both, nothing sent or written', async (_what, name, failedOf, message) => {
    const output = join(scratch(), name);
    const failed = failedOf(output);
    writeFileSync(output, 'kept\n');
    const before = mock.api.requests.length;
    const dois = [MOCK_DOIS[0]!, '10.9999/no-such-paper'];
    const result = await run(['papers', 'get-many', ...dois, '-o', output, '--failed', failed], {
      url: mock.server.url,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: ${message(failed, output)}\n`);
    expect(mock.api.requests.length).toBe(before);
    expect(readFileSync(output, 'utf8')).toBe('kept\n');
    if (resolve(failed) !== output) expect(existsSync(failed)).toBe(false);
  });
});

describe('papers get-many: repeats, blanks and --keep-input', () => {
  it('looks a DOI given twice (any case, any form) up once and writes it once', async () => {
    const [first, second] = [MOCK_DOIS[0]!, MOCK_DOIS[1]!];
    const before = mock.api.requests.length;
    const input = `${second}\n${first}\n\n${first.toUpperCase()}\nhttps://doi.org/${first}\n   \n${second}\n`;
    // Batches of 4 (concurrency 1): the repeats fall in another batch than the first.
    const result = await run(
      ['papers', 'get-many', '--input', '-', '--concurrency', '1', '--format', 'jsonl'],
      { url: mock.server.url, input, terminal: { stderr: true } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(jsonLines(result.stdout).map((paper) => (paper as { doi: string }).doi)).toEqual([second, first]);
    const paths = mock.api.requests.slice(before).map((request) => request.path);
    expect(paths).toHaveLength(2);
    expect(result.stderr).toMatch(/2 papers; skipped 2 blank lines, 3 repeated DOIs\n$/);
  });

  it('--keep-input writes the DOI cell as the input gave it, in a column input', async () => {
    const doi = MOCK_DOIS[0]!;
    const given = `https://doi.org/${doi.toUpperCase()}`;
    const result = await run(['papers', 'get-many', given, '--keep-input', '--format', 'csv'], {
      url: mock.server.url,
    });
    expect(result.code, result.stderr).toBe(0);
    const [row] = csvRecords(result.stdout);
    expect(Object.keys(row!)[0]).toBe('input');
    expect(row).toMatchObject({ input: given, doi });
    const picked = await run(
      ['papers', 'get-many', given, '--keep-input', '--fields', 'doi,title', '--format', 'csv'],
      { url: mock.server.url },
    );
    expect(picked.stdout.split('\r\n')[0]).toBe('input,doi,title');
    // Named in --fields, it still comes first; without --keep-input, naming it is a usage error.
    const named = await run(
      ['papers', 'get-many', given, '--keep-input', '--fields', 'doi,input', '--format', 'csv'],
      { url: mock.server.url },
    );
    expect(named.code, named.stderr).toBe(0);
    expect(csvRecords(named.stdout)).toEqual([{ input: given, doi }]);
    const before = mock.api.requests.length;
    const alone = await run(['papers', 'get-many', given, '--fields', 'doi,input', '--format', 'csv'], {
      url: mock.server.url,
    });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toBe('error: --fields input needs --keep-input\n');
    expect(mock.api.requests.length).toBe(before);
  });

  it('-q lists no failed DOI and no hint: the error line alone, exit 3', async () => {
    const result = await run(['papers', 'get-many', MOCK_DOIS[0]!, '10.9999/no-such-paper', '-q'], {
      url: mock.server.url,
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('error: LookupsFailedError: 1 of 2 DOIs failed\n');
  });
});

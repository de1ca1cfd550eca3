/**
 * `papers get-many --resume` and the DOIs that failed: the resumed run exits 3 when any failed, the
 * stopped run's included, and `--failed FILE` ends as an unstopped run writes it (its header row, no
 * DOI twice), whether the run was stopped by Ctrl-C or killed outright.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support.js';
import { run, runStoppedAt } from './helpers.js';
import { scratch } from './resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 80, authors: 20 } });

/** DOIs of the mock's papers: each found. */
async function found(count: number): Promise<string[]> {
  const all = await mock.client().papers.search({ per_page: 100 }).toArray({ limit: count });
  return all.map((paper) => paper.doi).filter((doi): doi is string => doi !== undefined);
}

/**
 * `size` DOIs, `missing` ones (not found) at their places, the others found: the arguments of a
 * get-many reading them with `--input` in batches of 4 (concurrency 1), and the folder of its files.
 */
async function listWith(missing: Record<number, string>, size = 12) {
  const dois = await found(size - Object.keys(missing).length);
  for (const [at, doi] of Object.entries(missing)) dois.splice(Number(at), 0, doi);
  const folder = scratch();
  const input = join(folder, 'dois.txt');
  writeFileSync(input, `${dois.join('\n')}\n`);
  return { dois, folder, args: ['papers', 'get-many', '--input', input, '--concurrency', '1'] };
}

/**
 * Runs `args` with a clock standing still (the checkpoint saved after the first batch only, until the
 * run stops), stopped as the lookup of `doi` is asked for: by Ctrl-C, or as `kill -9` would, the
 * `files` put back as they were on disk at that moment.
 */
async function stoppedAt(args: string[], doi: string, how: 'ctrl-c' | 'kill', files: string[] = []) {
  let onDisk: (string | undefined)[] = [];
  const lookupOf = (url: URL) => decodeURIComponent(url.pathname).endsWith(`/${doi}`);
  const result = await runStoppedAt(mock.server, args, lookupOf, {
    onStop: () => {
      onDisk = files.map((file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined));
    },
  });
  expect(result.code, result.stderr).toBe(130);
  if (how === 'kill')
    for (const [index, file] of files.entries()) {
      const text = onDisk[index];
      if (text === undefined) rmSync(file, { force: true });
      else writeFileSync(file, text);
    }
  return result;
}

/** The output and `--failed` file of the run never stopped. */
async function unstopped(args: string[], folder: string) {
  const [output, failed] = [join(folder, 'whole.jsonl'), join(folder, 'whole-failed.tsv')];
  const result = await run([...args, '-o', output, '--failed', failed], { url: mock.server.url });
  expect(result.code, result.stderr).toBe(3);
  return { output: readFileSync(output, 'utf8'), failed: readFileSync(failed, 'utf8') };
}

/** The first cell of each line of a tsv file. */
function firstColumn(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t')[0]!);
}

describe('papers get-many --resume --failed FILE', () => {
  it('after kill -9: FILE cut back to its checkpoint, each failure in it once', async () => {
    // In the second batch: its failure reaches FILE after the last checkpoint saved before the kill.
    const { dois, folder, args } = await listWith({ 5: '10.9999/mid' });
    const whole = await unstopped(args, folder);
    const [output, failed] = [join(folder, 'a.jsonl'), join(folder, 'a-failed.tsv')];
    const files = [output, `${output}.checkpoint.json`, failed];
    const command = [...args, '-o', output, '--failed', failed];
    await stoppedAt(command, dois[8]!, 'kill', files);
    expect(readFileSync(failed, 'utf8')).toContain('10.9999/mid\t');
    const resumed = await run([...command, '--resume'], { url: mock.server.url });
    expect(resumed.code, resumed.stderr).toBe(3);
    expect(readFileSync(failed, 'utf8')).toBe(whole.failed);
    expect(readFileSync(output, 'utf8')).toBe(whole.output);
  });

  it('Parquet, a row group still gathering at Ctrl-C: FILE as the checkpoint, of an earlier batch, had it', async () => {
    // Groups of 4 rows: the third batch (3 papers, 1 failure) stays gathered, its failure in FILE,
    // and the checkpoint saved at Ctrl-C is the second batch's.
    const { dois, folder, args } = await listWith({ 9: '10.9999/mid' }, 16);
    const whole = await unstopped(args, folder);
    const [output, failed] = [join(folder, 'a.parquet'), join(folder, 'a-failed.tsv')];
    const command = [...args, '-o', output, '--row-group', '4', '--failed', failed];
    await stoppedAt(command, dois[12]!, 'ctrl-c');
    expect(JSON.parse(readFileSync(`${output}.checkpoint.json`, 'utf8')).position).toBe(8);
    expect(readFileSync(failed, 'utf8')).toContain('10.9999/mid\t');
    const resumed = await run([...command, '--resume'], { url: mock.server.url });
    expect(resumed.code, resumed.stderr).toBe(3);
    expect(readFileSync(failed, 'utf8')).toBe(whole.failed);
  });

  it('first given on the resume: FILE has its header row, and retrying it runs', async () => {
    const { dois, folder, args } = await listWith({ 9: '10.9999/late' });
    const whole = await unstopped(args, folder);
    const [output, failed] = [join(folder, 'b.jsonl'), join(folder, 'b-failed.tsv')];
    await stoppedAt([...args, '-o', output], dois[8]!, 'ctrl-c');
    const resumed = await run([...args, '-o', output, '--failed', failed, '--resume'], {
      url: mock.server.url,
    });
    expect(resumed.code, resumed.stderr).toBe(3);
    expect(readFileSync(failed, 'utf8')).toBe(whole.failed);
    expect(whole.failed.split('\n')[0]).toBe('doi\terror\tmessage');
    const retry = await run(['papers', 'get-many', '--input', failed, '--input-column', 'doi'], {
      url: mock.server.url,
    });
    expect(retry.code, retry.stderr).toBe(3);
    expect(retry.stderr).toContain('error: LookupsFailedError: 1 of 1 DOI failed');
  });

  it('left out of a resume between two that give it: FILE as the first run’s checkpoint had it', async () => {
    const { dois, folder, args } = await listWith({ 0: '10.9999/early', 5: '10.9999/mid' }, 15);
    const [output, failed] = [join(folder, 'c.jsonl'), join(folder, 'c-failed.tsv')];
    const files = [output, `${output}.checkpoint.json`, failed];
    // Killed with the second batch's failure in FILE, past the checkpoint of the first batch.
    await stoppedAt([...args, '-o', output, '--failed', failed], dois[8]!, 'kill', files);
    expect(firstColumn(failed)).toEqual(['doi', '10.9999/early', '10.9999/mid']);
    await stoppedAt([...args, '-o', output, '--resume'], dois[12]!, 'ctrl-c');
    const last = await run([...args, '-o', output, '--failed', failed, '--resume'], { url: mock.server.url });
    expect(last.code, last.stderr).toBe(3);
    expect(firstColumn(failed)).toEqual(['doi', '10.9999/early']);
  });
});

describe('papers get-many --resume after a DOI failed', () => {
  it('exits 3, its last words counting the failure of the stopped run', async () => {
    const { dois, folder, args } = await listWith({ 0: '10.9999/early' });
    const output = join(folder, 'c.jsonl');
    const stopped = await stoppedAt([...args, '-o', output], dois[8]!, 'ctrl-c');
    expect(stopped.stderr).toContain('10.9999/early: NotFoundError: ');
    const resumed = await run([...args, '-o', output, '--resume'], { url: mock.server.url });
    expect(resumed.code, resumed.stderr).toBe(3);
    expect(resumed.stderr).toContain(`wrote 11 of 12 papers to ${output}`);
    expect(resumed.stderr).toContain(
      'error: LookupsFailedError: 1 of 12 DOIs failed (listed by the stopped run)',
    );
    expect(resumed.stderr).not.toContain('10.9999/early');
  });

  it('counts both runs’ failures, and those of a checkpoint that kept no count', async () => {
    const { dois, folder, args: two } = await listWith({ 0: '10.9999/early', 12: '10.9999/late' }, 13);
    const output = join(folder, 'd.jsonl');
    await stoppedAt([...two, '-o', output], dois[8]!, 'ctrl-c');
    const checkpoint = `${output}.checkpoint.json`;
    const { failures, failed, ...older } = JSON.parse(readFileSync(checkpoint, 'utf8'));
    expect(failures).toBe(1);
    writeFileSync(checkpoint, JSON.stringify(older));
    const resumed = await run([...two, '-o', output, '--resume'], { url: mock.server.url });
    expect(resumed.code, resumed.stderr).toBe(3);
    expect(resumed.stderr).toContain(
      'error: LookupsFailedError: 2 of 13 DOIs failed (1 listed above, 1 by the stopped run)',
    );
  });

  it('of a run that finished with a failure: nothing requested, and it exits 3 as that run did', async () => {
    const { folder, args } = await listWith({ 3: '10.9999/gone' });
    const output = join(folder, 'f.jsonl');
    const first = await run([...args, '-o', output], { url: mock.server.url });
    expect(first.code, first.stderr).toBe(3);
    const requests = mock.api.requests.length;
    const again = await run([...args, '-o', output, '--resume'], { url: mock.server.url });
    expect(again.code, again.stderr).toBe(3);
    expect(again.stderr).toContain(`${output} is complete: nothing left to resume`);
    expect(again.stderr).toContain(
      'error: LookupsFailedError: 1 of 12 DOIs failed (listed by the run that finished the file)',
    );
    expect(mock.api.requests.length).toBe(requests);
  });

  it('refuses a checkpoint whose failures or --failed length is not a count (exit 2)', async () => {
    const { dois, folder, args } = await listWith({ 0: '10.9999/early' });
    const output = join(folder, 'e.jsonl');
    await stoppedAt([...args, '-o', output], dois[8]!, 'ctrl-c');
    const checkpoint = `${output}.checkpoint.json`;
    const saved = JSON.parse(readFileSync(checkpoint, 'utf8'));
    const wrong = [
      [{ failures: -1 }, 'failures is not a whole number of 0 or more'],
      [{ failed: { path: 'f.tsv', bytes: 'many' } }, 'failed is not a path and a byte length'],
    ] as const;
    for (const [fields, what] of wrong) {
      writeFileSync(checkpoint, JSON.stringify({ ...saved, ...fields }));
      const resumed = await run([...args, '-o', output, '--resume'], { url: mock.server.url });
      expect(resumed.code).toBe(2);
      expect(resumed.stderr).toContain(what);
    }
  });
});

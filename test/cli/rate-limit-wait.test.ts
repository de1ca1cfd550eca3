/**
 * A `Retry-After` the client waits out (a 429 of a minute or less): the progress line counts it down
 * instead of freezing, and a harvest's checkpoint holds every page written before the sleep, so a run
 * killed during the wait loses nothing it had written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support.js';
import { run } from './helpers.js';
import { scratch } from './resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 60, authors: 20 } });

function checkpointOf(file: string): { position: number; complete: boolean } | undefined {
  const path = `${file}.checkpoint.json`;
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

describe('a Retry-After wait during a harvest', { timeout: 60_000 }, () => {
  it('says rate-limited: waiting N s, and the checkpoint holds the pages written before the sleep', async () => {
    const file = join(scratch(), 'papers.jsonl');
    // Pages 1 and 2 answer; page 3 meets a 429 asking for 2 s, then answers.
    mock.api.faults.next({ delayMs: 0, times: 2 });
    mock.api.faults.next({ status: 429, headers: { 'retry-after': '2' } });
    const args = ['papers', 'search', '--per-page', '5', '--limit', '15', '--prefetch', '0', '-o', file];
    const running = run(args, { url: mock.server.url, terminal: { stderr: true } });
    // Page 2 came within the first second, when the checkpoint is not saved again on its own: only
    // the wait saves it (the next page to fetch: 3) before the retry.
    await expect
      .poll(() => checkpointOf(file), { timeout: 10_000, interval: 20 })
      .toEqual(expect.objectContaining({ position: 3, complete: false }));
    const result = await running;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('· rate-limited: waiting 2 s');
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(15);
    expect(checkpointOf(file)?.complete).toBe(true);
  });

  it('off a terminal the line is not drawn, and the wait still saves the checkpoint', async () => {
    const file = join(scratch(), 'papers.jsonl');
    mock.api.faults.next({ delayMs: 0, times: 2 });
    mock.api.faults.next({ status: 429, headers: { 'retry-after': '2' } });
    const args = ['papers', 'search', '--per-page', '5', '--limit', '15', '--prefetch', '0', '-o', file];
    const running = run(args, { url: mock.server.url });
    await expect
      .poll(() => checkpointOf(file), { timeout: 10_000, interval: 20 })
      .toEqual(expect.objectContaining({ position: 3, complete: false }));
    const result = await running;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('rate-limited');
  });
});

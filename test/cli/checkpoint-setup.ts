// What the checkpoint tests share: the walk they run, and a mock server with FILE as a stopped run
// left it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { useMockServer } from '../support.js';
import { run } from './helpers.js';
import { scratch } from './resume.js';

/** Four pages of five papers, fetched one at a time. */
export const walk = ['papers', 'search', '--per-page', '5', '--limit', '20', '--prefetch', '0'];

/** The test file's mock server, and `stoppedRun` against it. */
export function useStoppedRuns() {
  const mock = useMockServer({ sizes: { journals: 5, papers: 100, authors: 20 } });

  /**
   * FILE (`name`) as a full run with `options` writes it, and its checkpoint rewritten as a run stopped
   * after page `pages` left it.
   */
  async function stoppedRun(pages: number, name = 'out.jsonl', options: readonly string[] = []) {
    const file = join(scratch(), name);
    const full = await run([...walk, ...options, '--output', file], { url: mock.server.url });
    expect(full.code, full.stderr).toBe(0);
    const whole = readFileSync(file, 'utf8');
    const complete = JSON.parse(readFileSync(`${file}.checkpoint.json`, 'utf8'));
    const header = name.endsWith('.csv') ? 1 : 0;
    const lines = whole.split('\n').slice(0, header + pages * 5);
    const checkpoint = {
      ...complete,
      bytes: Buffer.byteLength(`${lines.join('\n')}\n`),
      writer: { ...complete.writer, count: pages * 5 },
      position: pages + 1,
      complete: false,
    };
    writeFileSync(`${file}.checkpoint.json`, JSON.stringify(checkpoint));
    mock.api.reset();
    return { file, whole, checkpoint };
  }

  return { mock, stoppedRun };
}

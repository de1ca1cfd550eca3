/**
 * A harvest's checkpoint records the server it read, however its base URL was given (`--base-url` or
 * METRIC_BASE_URL), normalised: a `--resume` against another server is refused, one against the same
 * server given another way is not.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support.js';
import { run } from './helpers.js';
import { dailyLimit } from './output/daily-limit.js';
import { scratch } from './resume.js';

const sizes = { journals: 5, papers: 100, authors: 20 };
const first = useMockServer({ sizes, limits: dailyLimit(2) });
const other = useMockServer({ sizes });
const search = ['papers', 'search', '--per-page', '5', '--all', '--prefetch', '0'];

/** A harvest of the first server stopped by its daily limit after two pages, its checkpoint saved. */
async function stoppedHarvest() {
  const file = join(scratch(), 'out.jsonl');
  const stopped = await run([...search, '-o', file], { url: first.server.url });
  expect(stopped.code, stopped.stderr).toBe(75);
  return file;
}

describe('--resume and the server', () => {
  it('is refused against another server named by METRIC_BASE_URL, before any request', async () => {
    const file = await stoppedHarvest();
    const asked = other.api.requests.length;
    const resumed = await run([...search, '-o', file, '--resume'], { url: other.server.url });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain(`--resume: ${file} was written by another command`);
    const [was, is] = [first.server.url, other.server.url];
    expect(resumed.stderr).toContain(
      `the checkpoint was made with --base-url ${was}; this run has --base-url ${is}`,
    );
    expect(other.api.requests.length).toBe(asked);
  });

  it('is taken against the same server given as --base-url, with a trailing slash', async () => {
    const file = await stoppedHarvest();
    const args = [...search, '-o', file, '--resume', '--base-url', `${first.server.url}/`];
    const resumed = await run(args, { url: other.server.url });
    // Not refused as another command: it goes on, and meets the same daily limit.
    expect(resumed.stderr).not.toContain('another command');
    expect(resumed.code, resumed.stderr).toBe(75);
  });
});

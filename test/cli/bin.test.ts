/**
 * The real bin's own process: what no in-process test can show.
 */
import { describe, expect, it } from 'vitest';
import { cliBin } from '../helpers/bin.js';
import { spawnNode } from '../helpers/spawn.js';
import { TEST_KEY } from '../support.js';

describe('the scholarly-metrics bin', () => {
  it('exits 0 without a stack when the reader of stdout has gone (`| head`), after run has returned', async () => {
    const spawned = spawnNode(cliBin, ['help', 'papers', 'search'], {
      env: { ...process.env, METRIC_API_KEY: '', METRIC_BASE_URL: '' },
    });
    // The read end closes before the bin's first write: that write fails with EPIPE.
    spawned.child.stdout?.destroy();
    const exit = await spawned.exited;
    expect(exit.stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(exit.code).toBe(0);
  }, 60_000);

  it('ends with its own exit code when the reader of stderr has gone (`2>&1 | head`)', async () => {
    // A usage error is written to stderr alone: exit 2, whatever became of the message.
    const spawned = spawnNode(cliBin, ['journals', 'get', 'not-an-id'], {
      env: { ...process.env, METRIC_API_KEY: TEST_KEY, METRIC_BASE_URL: 'http://127.0.0.1:9/api/v1' },
    });
    spawned.child.stderr?.destroy();
    expect((await spawned.exited).code).toBe(2);
  }, 60_000);
});

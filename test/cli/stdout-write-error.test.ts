/**
 * A standard output that fails for a reason other than a reader gone (`> /dev/full`, a full disk):
 * the real bin's process, whose stdout listener is the one at stake. And a standard error that fails
 * so (a cron log on a full disk), which loses the messages only.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { afterThisTest } from '../helpers/cleanup.js';
import { bin, environment } from './helpers.js';
import { scratch } from './resume.js';

/** Runs the bin with its standard output on `path`, opened for writing: its exit code and stderr. */
async function runWithStdoutOn(
  path: string,
  args: string[],
): Promise<{ code: number | null; stderr: string }> {
  const stdout = openSync(path, 'w');
  try {
    const child = spawn(process.execPath, [bin, ...args], {
      env: environment({}),
      stdio: ['ignore', stdout, 'pipe'],
    });
    afterThisTest(() => child.kill('SIGKILL'));
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const [code] = (await once(child, 'close')) as [number | null];
    return { code, stderr };
  } finally {
    closeSync(stdout);
  }
}

describe.runIf(existsSync('/dev/full'))('a standard output that cannot be written', () => {
  it('> /dev/full (ENOSPC): one error line on stderr and exit 1, no stack', async () => {
    const { code, stderr } = await runWithStdoutOn('/dev/full', ['--mock', 'journals', 'list']);
    expect(stderr).toBe('error: cannot write standard output: ENOSPC: no space left on device, write\n');
    expect(code).toBe(1);
  }, 60_000);
});

describe.runIf(existsSync('/dev/full'))('a standard error that cannot be written', () => {
  it('2> /dev/full: the command ends with its own exit code, its file written', async () => {
    const stderr = openSync('/dev/full', 'w');
    const file = join(scratch(), 'journals.jsonl');
    try {
      // The last word, on stderr, cannot be written: the file is, and the run ends as it would have.
      const child = spawn(process.execPath, [bin, '--mock', 'journals', 'list', '-o', file], {
        env: environment({}),
        stdio: ['ignore', 'ignore', stderr],
      });
      afterThisTest(() => child.kill('SIGKILL'));
      const [code] = (await once(child, 'close')) as [number | null];
      expect(code).toBe(0);
      expect(readFileSync(file, 'utf8').split('\n').filter(Boolean).length).toBeGreaterThan(0);
    } finally {
      closeSync(stderr);
    }
  }, 60_000);
});

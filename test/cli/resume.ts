/** Helpers of the resume tests: a scratch folder (a FIFO in one), and waiting for lines to reach a file. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterThisTest } from '../helpers/cleanup.js';

/** A folder of its own for the running test, removed when it ends. */
export function scratch(): string {
  const folder = mkdtempSync(join(tmpdir(), 'scholarly-cli-'));
  afterThisTest(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

/** A FIFO named `name` in a scratch folder. */
export function fifo(name = 'out.fifo'): string {
  const path = join(scratch(), name);
  execFileSync('mkfifo', [path]);
  return path;
}

export function lineCount(path: string): number {
  if (!existsSync(path)) return 0;
  return readFileSync(path, 'utf8').split('\n').length - 1;
}

/** Resolves once `path` holds at least `lines` lines; rejects if `exited` settles first. */
export async function linesReach(path: string, lines: number, exited: Promise<unknown>): Promise<void> {
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  while (lineCount(path) < lines) {
    if (ended) throw new Error(`the run ended before ${path} held ${lines} lines`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

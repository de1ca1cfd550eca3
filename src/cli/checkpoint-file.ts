/**
 * A checkpoint reaches its file through a temporary file of a random name beside it, renamed over the
 * old one: a run killed at any moment leaves the old checkpoint or the new one, never half of one.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { readdir, rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Checkpoint } from './checkpoint.js';
import { OutputFileError } from './errors.js';
import { terminalSafe } from './output/escape.js';

/**
 * The temporary files of checkpoints being written: a second Ctrl-C exits at once, between a write
 * and its rename, and a file of a random name would be left beside the output for good.
 */
const temporaries = new Set<string>();
let listeningForExit = false;

function removeTemporaries(): void {
  for (const file of temporaries) rmSync(file, { force: true });
}

/** A temporary file beside the checkpoint at `path`, of a name no other run picks. */
export const temporaryPath = (path: string) => `${path}.${randomBytes(8).toString('hex')}.tmp`;

/** Replaces the checkpoint at `path`: a temporary file of a random name, created (never opened), renamed. */
export async function writeCheckpoint(path: string, checkpoint: Checkpoint): Promise<void> {
  // 'wx' fails on any file there, a symbolic link included: nothing is written through one.
  const temporary = temporaryPath(path);
  if (!listeningForExit) process.once('exit', removeTemporaries);
  listeningForExit = true;
  temporaries.add(temporary);
  try {
    await writeFile(temporary, `${JSON.stringify(checkpoint)}\n`, { flag: 'wx' });
    await rename(temporary, path);
    temporaries.delete(temporary);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    temporaries.delete(temporary);
    // Node's words name the temporary file; the message names the checkpoint a run resumes from.
    const message = `cannot save the checkpoint ${path}: ${(error as Error).message}`;
    throw new OutputFileError(terminalSafe(message), { cause: error });
  }
}

/**
 * Removes the temporary files a run killed between a write and its rename (`kill -9`, a power cut)
 * left beside the checkpoint at `path`: no exit handler ran to take them away.
 */
export async function sweepTemporaries(path: string): Promise<void> {
  const directory = dirname(path);
  const prefix = `${basename(path)}.`;
  const names = await readdir(directory).catch(() => [] as string[]);
  const left = names.filter(
    (name) => name.startsWith(prefix) && /^[0-9a-f]{16}\.tmp$/.test(name.slice(prefix.length)),
  );
  await Promise.all(left.map((name) => unlink(join(directory, name)).catch(() => {})));
}

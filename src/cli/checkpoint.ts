/**
 * The checkpoint of a resumable harvest (`--output FILE`): `FILE.checkpoint.json`, beside the output.
 * It records the command that writes the file, the byte length of the output that is complete, and
 * where to carry on. Written after each page (or batch of DOIs) is in the file, by writing a temporary
 * file and renaming it over the old one: a run killed at any moment leaves the old checkpoint or the
 * new one, never half of one.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { UsageError } from './errors.js';
import type { ListState } from './output/formats.js';

export interface Checkpoint {
  /** The command line that writes the output, paging and formatting options included. */
  readonly command: readonly string[];
  /** Bytes of the output that are complete; a resume cuts the file back to this length. */
  readonly bytes: number;
  /** The list writer's state at that point. */
  readonly writer: ListState;
  /** Walks: the next page to request. get-many: the DOIs done, counted from the first. */
  readonly position: number;
  /** Whether the run finished: a resume then has nothing left to do. */
  readonly complete: boolean;
}

export function checkpointPath(output: string): string {
  return `${output}.checkpoint.json`;
}

/**
 * The checkpoint to resume from: `undefined` when there is none (a fresh start). A checkpoint of
 * another command is refused: its output is not this command's to extend.
 */
export async function readCheckpoint(
  output: string,
  command: readonly string[],
): Promise<Checkpoint | undefined> {
  let text: string;
  try {
    text = await readFile(checkpointPath(output), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let saved: Checkpoint;
  try {
    saved = JSON.parse(text) as Checkpoint;
  } catch {
    throw new UsageError(
      `${checkpointPath(output)} is not a checkpoint: remove it, or pick another --output`,
    );
  }
  if (JSON.stringify(saved.command) !== JSON.stringify(command)) {
    throw new UsageError(
      `${output} was written by another command (${saved.command.join(' ')}): ` +
        'run that command to resume it, or pick another --output',
    );
  }
  return saved;
}

export async function writeCheckpoint(output: string, checkpoint: Checkpoint): Promise<void> {
  const path = checkpointPath(output);
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(checkpoint)}\n`);
  await rename(temporary, path);
}

// What is said of FILE and its checkpoint, for a FILE whose name would write the clipboard: escaped.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeCheckpoint } from '../../src/cli/checkpoint-file.js';
import { OutputFileError } from '../../src/cli/errors.js';
import { useStoppedRuns, walk } from './checkpoint-setup.js';
import { run } from './helpers.js';
import { clipboardName, clipboardNameShown, expectNameEscaped, hostile } from './output/hostile.js';
import { scratch } from './resume.js';

const { mock } = useStoppedRuns();

describe('what is said of FILE and its checkpoint names them escaped', () => {
  /** FILE, named to write the clipboard, as a full run wrote it, and its checkpoint. */
  async function written() {
    const file = join(scratch(), clipboardName);
    const full = await run([...walk, '--output', file], { url: mock.server.url });
    expect(full.code, full.stderr).toBe(0);
    const checkpoint = JSON.parse(readFileSync(`${file}.checkpoint.json`, 'utf8'));
    return { file, checkpoint };
  }

  const resume = (file: string) => run([...walk, '--output', file, '--resume'], { url: mock.server.url });

  it('a checkpoint refused: not JSON, FILE gone', async () => {
    const { file, checkpoint } = await written();
    writeFileSync(`${file}.checkpoint.json`, '{"command": [');
    const notJson = await resume(file);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain(
      '.checkpoint.json is not a checkpoint this command can resume (not JSON)',
    );
    expectNameEscaped(notJson.stderr);
    writeFileSync(`${file}.checkpoint.json`, JSON.stringify({ ...checkpoint, complete: false, position: 2 }));
    rmSync(file);
    const gone = await resume(file);
    expect(gone.code).toBe(2);
    // In the checkpoint's name, and in what is wrong.
    expect(gone.stderr.split(clipboardNameShown)).toHaveLength(3);
    expectNameEscaped(gone.stderr);
  });

  it('another command, its words read from the checkpoint escaped too', async () => {
    const { file, checkpoint } = await written();
    const command = [...checkpoint.command, `--q=${hostile.title}`];
    writeFileSync(`${file}.checkpoint.json`, JSON.stringify({ ...checkpoint, command }));
    const result = await resume(file);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('was written by another command (');
    expect(result.stderr).toContain('--q \\e]0;pwned\\x07');
    expectNameEscaped(result.stderr);
  });

  it('an unfinished run without --resume; a complete one with it', async () => {
    const { file, checkpoint } = await written();
    const complete = await resume(file);
    expect(complete.code, complete.stderr).toBe(0);
    expect(complete.stderr).toContain(' is complete: nothing left to resume');
    expectNameEscaped(complete.stderr);
    writeFileSync(`${file}.checkpoint.json`, JSON.stringify({ ...checkpoint, complete: false, position: 2 }));
    const unfinished = await run([...walk, '--output', file], { url: mock.server.url });
    expect(unfinished.code).toBe(2);
    expect(unfinished.stderr).toContain(' holds an unfinished run: add --resume to continue');
    expectNameEscaped(unfinished.stderr);
  });

  it.each([
    // Long enough that the checkpoint's temporary name is too long, the checkpoint itself not.
    ['written', 220],
    // Long enough that the checkpoint's own name is too long, FILE's not.
    ['read', 245],
  ])('a checkpoint that could not be %s: refused before any request, the name escaped', async (_, length) => {
    const name = `${clipboardName}${'x'.repeat(length - clipboardName.length)}`;
    const file = join(scratch(), name);
    const asked = mock.api.requests.length;
    const result = await run([...walk, '--output', file], { url: mock.server.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: --output .*: too long a name to keep .*\.checkpoint\.json beside it/,
    );
    expectNameEscaped(result.stderr);
    expect(mock.api.requests.length).toBe(asked);
  });
});

describe('a checkpoint that cannot be saved', () => {
  it('is an OutputFileError naming the checkpoint (escaped), not the temporary file, its cause kept', async () => {
    const path = join(scratch(), 'gone\u001b[2J', 'out.jsonl.checkpoint.json');
    const checkpoint = {
      command: ['papers', 'search'],
      bytes: 0,
      writer: { count: 0 },
      position: 1,
      complete: false,
    };
    const error = await writeCheckpoint(path, checkpoint).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutputFileError);
    expect((error as Error).message).toMatch(
      /^cannot save the checkpoint .*gone\\e\[2J\/out\.jsonl\.checkpoint\.json: ENOENT/,
    );
    expect(((error as Error).cause as NodeJS.ErrnoException).code).toBe('ENOENT');
  });
});

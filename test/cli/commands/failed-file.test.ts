import type { FileHandle } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { appendFailed, type FailedFile, openFailed } from '../../../src/cli/commands/failed-file.js';
import { OutputFileError, UsageError } from '../../../src/cli/errors.js';

describe('the --failed file', () => {
  it('fails as an --output file does when a line cannot be written (a full disk): named, escaped, its cause kept', async () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const handle = { appendFile: async () => Promise.reject(full) } as unknown as FileHandle;
    const failed: FailedFile = { path: 'failed\u001b[2J.tsv', handle, bytes: 12 };
    const error = await appendFailed(failed, '10.1/x\tNotFoundError\tgone\n').catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OutputFileError);
    expect((error as Error).message).toBe(
      'cannot write --failed failed\\e[2J.tsv: ENOSPC: no space left on device, write',
    );
    expect((error as Error).cause).toBe(full);
    expect(failed.bytes).toBe(12);
  });

  it('names the file once when its header cannot be written at open (a usage error, as before any record)', async () => {
    const error = await openFailed('/dev/full', undefined).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(
      'cannot write --failed /dev/full: ENOSPC: no space left on device, write',
    );
  });
});

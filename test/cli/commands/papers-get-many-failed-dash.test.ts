/**
 * `papers get-many --failed -`: `-` is standard output, where the papers go, not a file to make.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from '../helpers.js';

describe('papers get-many --failed -', () => {
  it.each([
    ['--failed -', ['--failed', '-']],
    ['--failed=-', ['--failed=-']],
    // The output options every command has are checked first.
    [
      '--failed - with -o -',
      ['--failed', '-', '-o', '-'],
      '--output - is standard output: leave --output out instead',
    ],
  ])('%s: a usage error, as --output - is, and no file named -', async (_form, flags, message?: string) => {
    const result = await run(['--mock', 'papers', 'get-many', '10.9/nope', ...flags]);
    expect(result.stderr).toBe(
      `error: ${message ?? '--failed - is standard output: give --failed a file instead'}\n`,
    );
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(existsSync('-')).toBe(false);
  });
});

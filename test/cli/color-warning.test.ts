/**
 * FORCE_COLOR wins over NO_COLOR, as docs/cli.md says: Node's warning that it ignores NO_COLOR is
 * kept off the terminal like node:sqlite's ExperimentalWarning, and by the same filter, which lets
 * every other warning through. Node emits it once a process, as it first reads its colours (on Node
 * 24 an ES import of node:util does): a child process shows it, where this one has read them long since.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isQuietWarning, quietly } from '../../src/cli/quiet-warnings.js';
import { spawnNode } from '../helpers/spawn.js';

const noColorIgnored = "The 'NO_COLOR' env is ignored due to the 'FORCE_COLOR' env being set.";
const fixture = join(import.meta.dirname, 'fixtures/quiet-node-util.ts');

describe('the warning that FORCE_COLOR overrides NO_COLOR', () => {
  it("is quiet, as node:sqlite's ExperimentalWarning is; other warnings are not", () => {
    expect(isQuietWarning(noColorIgnored, 'Warning')).toBe(true);
    expect(isQuietWarning(noColorIgnored, undefined)).toBe(true);
    expect(isQuietWarning(new Error(noColorIgnored), 'Warning')).toBe(true);
    expect(
      isQuietWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning'),
    ).toBe(true);
    expect(isQuietWarning(noColorIgnored.replace('NO_COLOR', 'NODE_DISABLE_COLORS'), 'Warning')).toBe(false);
    expect(isQuietWarning(noColorIgnored, 'DeprecationWarning')).toBe(false);
    expect(isQuietWarning('Type Stripping is an experimental feature', 'ExperimentalWarning')).toBe(false);
    expect(isQuietWarning('Possible EventEmitter memory leak detected', 'MaxListenersExceededWarning')).toBe(
      false,
    );
  });

  it('quietly keeps it off while a module loads, passes the others on, and ends with the load', async () => {
    const emitWarning = process.emitWarning;
    const passed: unknown[][] = [];
    // Node's own emitWarning, played by one that records what reaches it.
    const recorder = ((...args: unknown[]) => {
      passed.push(args);
    }) as typeof process.emitWarning;
    process.emitWarning = recorder;
    try {
      await quietly(async () => {
        process.emitWarning(noColorIgnored, 'Warning');
        process.emitWarning(noColorIgnored, { type: 'Warning' });
        process.emitWarning('another warning', 'Warning');
      });
      expect(passed).toEqual([['another warning', 'Warning']]);
      expect(process.emitWarning).toBe(recorder);
    } finally {
      process.emitWarning = emitWarning;
    }
  });

  it('a process that loads node:util through quietly prints no warning of it (NO_COLOR=1 FORCE_COLOR=1)', async () => {
    const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '1' };
    // Without the filter the warning is there: the child is where Node emits it.
    const plain = await spawnNode(fixture, [], { env }).exited;
    expect(plain.stderr).toContain(`Warning: ${noColorIgnored}`);
    const quiet = await spawnNode(fixture, ['quietly'], { env }).exited;
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toContain('NO_COLOR');
    expect(quiet.stderr).toContain('Warning: a warning of the fixture');
  });
});

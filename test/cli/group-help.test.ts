/**
 * `GROUP help COMMAND` (`journals help papers`) reads as `help GROUP COMMAND` does: the command's
 * help on stdout, or an error line for a command that does not exist. Completion offers after it
 * what it offers after the group.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bashReplies } from './bash-completion.js';
import { run } from './helpers.js';

const groups = ['journals', 'papers', 'authors', 'subjects', 'countries'];

describe('help within a group', () => {
  it.each(groups)('%s help nosuch: an error line and exit 2, as help GROUP nosuch', async (group) => {
    const result = await run([group, 'help', 'nosuch'], { key: undefined });
    expect(result.stderr).toBe(`error: no command ${group} nosuch: see scholarly-metrics --help\n`);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result).toEqual(await run(['help', group, 'nosuch'], { key: undefined }));
  });

  it('names a command past the one that has none, and shows what was typed escaped', async () => {
    const past = await run(['journals', 'help', 'papers', 'extra'], { key: undefined });
    expect(past.stderr).toBe('error: no command journals papers extra: see scholarly-metrics --help\n');
    expect(past.code).toBe(2);
    const typed = await run(['journals', 'help', '\u001b[2J'], { key: undefined });
    expect(typed.stderr).toBe('error: no command journals \\e[2J: see scholarly-metrics --help\n');
  });

  it("journals help papers: that command's help on stdout, exit 0, as help journals papers", async () => {
    const result = await run(['journals', 'help', 'papers'], { key: undefined });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: scholarly-metrics journals papers \[options\] <id>\n/);
    expect(result.stdout).toBe((await run(['help', 'journals', 'papers'], { key: undefined })).stdout);
  });

  it("journals help: the group's own help on stdout, exit 0, as journals --help", async () => {
    const result = await run(['journals', 'help'], { key: undefined });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe((await run(['journals', '--help'], { key: undefined })).stdout);
    expect(result.stdout).toMatch(/^ {2}help \[command\.\.\.\] +help for a command: journals help list$/m);
  });
});

describe("completion of a group's help", () => {
  const folder = mkdtempSync(join(tmpdir(), 'scholarly-group-help-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("offers the group's commands after GROUP help, and help nowhere as one of a group's", async () => {
    const script = join(folder, 'completion.bash');
    writeFileSync(script, (await run(['completion', 'bash'], { key: undefined })).stdout);
    const complete = (line: string) => bashReplies(script, line.split(' '));
    expect(complete('scholarly-metrics journals help ')).toEqual(
      expect.arrayContaining(['list', 'get', 'papers', 'score']),
    );
    expect(complete('scholarly-metrics journals help ')).not.toContain('help');
    expect(complete('scholarly-metrics journals ')).not.toContain('help');
    expect(complete('scholarly-metrics help journals ')).toEqual(['list', 'get', 'papers', 'score']);
  });
});

import { describe, expect, it } from 'vitest';
import { paintReport, paintReportFor, palette, useColor } from '../../src/cli/color.js';

describe('colour', () => {
  it('--color decides; else NO_COLOR, FORCE_COLOR, then whether it is a terminal', () => {
    expect(useColor({ env: {}, terminal: true })).toBe(true);
    expect(useColor({ env: {}, terminal: false })).toBe(false);
    expect(useColor({ env: { NO_COLOR: '1' }, terminal: true })).toBe(false);
    expect(useColor({ env: { NO_COLOR: '' }, terminal: true })).toBe(true);
    expect(useColor({ env: { FORCE_COLOR: '1' }, terminal: false })).toBe(true);
    expect(useColor({ env: { FORCE_COLOR: '0' }, terminal: true })).toBe(false);
    expect(useColor({ choice: 'always', env: { NO_COLOR: '1' }, terminal: false })).toBe(true);
    expect(useColor({ choice: 'never', env: { FORCE_COLOR: '1' }, terminal: true })).toBe(false);
  });

  it('FORCE_COLOR set and not empty wins over NO_COLOR (force-color.org); 0, false or empty do not force', () => {
    expect(useColor({ env: { FORCE_COLOR: '1', NO_COLOR: '1' }, terminal: false })).toBe(true);
    expect(useColor({ env: { FORCE_COLOR: 'yes' }, terminal: false })).toBe(true);
    expect(useColor({ env: { FORCE_COLOR: '3' }, terminal: false })).toBe(true);
    expect(useColor({ env: { FORCE_COLOR: 'false' }, terminal: true })).toBe(false);
    expect(useColor({ env: { FORCE_COLOR: 'FALSE' }, terminal: true })).toBe(false);
    expect(useColor({ env: { FORCE_COLOR: '' }, terminal: false })).toBe(false);
    expect(useColor({ env: { FORCE_COLOR: '', NO_COLOR: '1' }, terminal: true })).toBe(false);
  });

  it('FORCE_COLOR colours a table written to a pipe, never a file', async () => {
    const { mkdtemp, readFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { run } = await import('./helpers.js');
    const args = ['--mock', 'journals', 'list', '--format', 'table', '--limit', '2'];
    const piped = await run(args, { env: { FORCE_COLOR: '1' } });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain('\u001b[1m');
    const plain = await run(args);
    expect(plain.stdout).not.toContain('\u001b[');
    const file = join(await mkdtemp(join(tmpdir(), 'color-')), 'journals.txt');
    const written = await run([...args, '-o', file], { env: { FORCE_COLOR: '1' } });
    expect(written.code).toBe(0);
    expect(await readFile(file, 'utf8')).not.toContain('\u001b[');
  });

  it('styles with SGR codes only when on', () => {
    expect(palette(true).header('ID')).toBe('\u001b[1mID\u001b[22m');
    expect(palette(true).error('error')).toBe('\u001b[31merror\u001b[39m');
    expect(palette(false).hint('hint')).toBe('hint');
  });
});

describe('errors and hints in colour', () => {
  it('paints the error prefix red and the hint dim, on a terminal only', async () => {
    const { run } = await import('./helpers.js');
    const onTerminal = await run(['papers', 'get', '10.1/x'], {
      key: undefined,
      terminal: { stderr: true },
      env: { FORCE_COLOR: '1' },
    });
    expect(onTerminal.code).toBe(2);
    expect(onTerminal.stderr).toContain('\u001b[31merror:\u001b[39m no API key');
    const piped = await run(['papers', 'get', '10.1/x'], { key: undefined });
    expect(piped.stderr).toMatch(/^error: no API key/);
  });

  it("paints commander's usage errors as the command's own, unless --color never came first", async () => {
    const { run } = await import('./helpers.js');
    const terminal = { terminal: { stderr: true }, env: { FORCE_COLOR: '1' } } as const;
    const unknown = await run(['--mock', 'journals', 'lst'], terminal);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split('\n')[0]).toBe("\u001b[31merror:\u001b[39m unknown command 'lst'");
    const refused = await run(['--color', 'never', '--mock', 'journals', 'lst'], terminal);
    expect(refused.stderr).toMatch(/^error: unknown command 'lst'\n/);
    const piped = await run(['--mock', 'journals', 'lst']);
    expect(piped.stderr).toMatch(/^error: unknown command 'lst'\n/);
  });

  it('leaves the error plain on a terminal that shows no colours (TERM=dumb), as it leaves tables', async () => {
    const { run } = await import('./helpers.js');
    const args = ['--mock', 'journals', 'get', '99999'];
    const dumb = { terminal: { stderr: true }, env: { TERM: 'dumb' } };
    const plain = await run(args, dumb);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/^error: NotFoundError: /);
    // Asked for, colour still comes: FORCE_COLOR and --color always win over the terminal.
    const forced = await run(args, { ...dumb, env: { TERM: 'dumb', FORCE_COLOR: '1' } });
    expect(forced.stderr).toContain('\u001b[31merror:\u001b[39m NotFoundError: ');
    const always = await run(['--color', 'always', ...args], dumb);
    expect(always.stderr).toContain('\u001b[31merror:\u001b[39m NotFoundError: ');
  });

  it("paintReportFor paints on a terminal whose environment says it shows colours, as Node's hasColors()", () => {
    const red = '\u001b[31merror:\u001b[39m x';
    const paint = (env: Record<string, string>, isTTY: boolean) =>
      paintReportFor('error: x', undefined, { env, stderr: { isTTY } });
    expect(paint({ TERM: 'xterm-256color' }, true)).toBe(red);
    expect(paint({ TERM: 'dumb' }, true)).toBe('error: x');
    expect(paint({ TERM: 'xterm-256color' }, false)).toBe('error: x');
    expect(paint({ TERM: 'dumb', FORCE_COLOR: '1' }, true)).toBe(red);
  });

  it('paintReport leaves a stack as it is', () => {
    const text = paintReport('error: X: y\nhint: z\n    at f', palette(true));
    expect(text).toBe('\u001b[31merror:\u001b[39m X: y\n\u001b[2mhint: z\u001b[22m\n    at f');
  });
});

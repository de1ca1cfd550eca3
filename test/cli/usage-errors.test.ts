/**
 * A usage error echoes what was typed: an unknown command, a refused value, the words after `help`.
 * Those words may come from a file (`xargs scholarly-metrics journals get < ids.txt`): they reach
 * stderr escaped, as every echoed input does, never as sequences the terminal would act on.
 */
import { describe, expect, it } from 'vitest';
import { run } from './helpers.js';
import { hostile } from './output/hostile.js';

const clipboard = hostile.osc52;
const clipboardShown = '\\e]52;c;ZXZpbA==\\x07';

/** The run's stderr holds `shown` and no ESC, BEL or 8-bit CSI a terminal would act on. */
function expectEscaped(stderr: string, shown: string): void {
  expect(stderr).toContain(shown);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for them
  expect(stderr).not.toMatch(/[\u001b\u0007\u009b]/);
}

describe('a usage error that echoes what was typed', () => {
  it.each([
    ['an id the parser refuses', ['--mock', 'journals', 'get', `4${clipboard}`], `'4${clipboardShown}'`],
    ['an unknown command', ['--mock', `journals${clipboard}`], `'journals${clipboardShown}'`],
    ['a value not among the choices', ['--mock', 'journals', 'list', '--format', clipboard], clipboardShown],
    ['an unknown option', ['--mock', 'journals', 'list', `--x${clipboard}`], `'--x${clipboardShown}'`],
    ['help of a command that does not exist', ['help', 'papers', clipboard], `papers ${clipboardShown}`],
  ])('%s: escaped, exit 2', async (_what, argv, shown) => {
    const result = await run(argv, { key: undefined });
    expect(result.code).toBe(2);
    expectEscaped(result.stderr, shown);
  });

  it('keeps its lines: the message, then the hint on a line of its own', async () => {
    const result = await run(['--mock', 'journals', 'lst'], { key: undefined });
    expect(result.stderr).toBe(
      "error: unknown command 'lst'\n(Did you mean list?)\n(add --help for the options)\n",
    );
  });

  it("with -q, the message alone: the hints go, as an error's do", async () => {
    for (const argv of [
      ['-q', '--mock', 'journals', 'lst'],
      ['--mock', 'papers', 'search', '--formt', 'csv', '--quiet'],
    ]) {
      const result = await run(argv, { key: undefined });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: unknown (command 'lst'|option '--formt')\n$/);
    }
  });
});

/**
 * The bash completion script with the words as bash really gives them: bash splits the line into
 * COMP_WORDS at each character of COMP_WORDBREAKS, `:` and `=` among them, so `my:metrics.sqlite`
 * comes as `my`, `:`, `metrics.sqlite`, and readline replaces only what follows the last `:` or `=`.
 * Run twice: the function called with COMP_WORDS split as bash splits them (with COMP_LINE and
 * COMP_POINT), and TAB pressed at a real bash prompt (tmux).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bashReplies } from './bash-completion.js';
import { run } from './helpers.js';
import { skipWithoutTmux, tmuxSession } from './tmux.js';

const folder = mkdtempSync(join(tmpdir(), 'scholarly-completion-words-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const script = join(folder, 'completion.bash');
const { code, stdout } = await run(['completion', 'bash'], { key: undefined });
if (code !== 0) throw new Error(`completion bash exited ${code}`);
writeFileSync(script, stdout);
/** The files completed: names with `:`, `=` and a space, a plain one, and a folder with a `:`. */
const files = join(folder, 'files');
mkdirSync(join(files, 'a:dir'), { recursive: true });
for (const name of ['my:metrics.sqlite', 'k=v.sqlite', 'my db.sqlite', 'plain-metrics.sqlite'])
  writeFileSync(join(files, name), '');

/**
 * COMP_WORDS as bash splits `line` (unquoted words, one space apart): at the spaces, then each word
 * at every run of `:` and `=`, the run a word of its own (as bash 5 gives them).
 */
function bashWords(line: string): string[] {
  return line
    .split(' ')
    .flatMap((word) => (word === '' ? [''] : word.split(/([:=]+)/).filter((piece) => piece !== '')));
}

/** What the completion function replies for `line`, the cursor at its end, run in the files' folder. */
const complete = (line: string) => bashReplies(script, bashWords(line), { line, cwd: files }).sort();

describe('completion bash, the words as bash splits them at : and =', () => {
  it('splits the line as bash does (the premise of these cases)', () => {
    expect(bashWords('scholarly-metrics sync my:met')).toEqual([
      'scholarly-metrics',
      'sync',
      'my',
      ':',
      'met',
    ]);
    expect(bashWords('x --output=k=v ')).toEqual(['x', '--output', '=', 'k', '=', 'v', '']);
  });

  it('completes a path with a `:` in it, replying only what follows the last `:`', () => {
    expect(complete('scholarly-metrics sync my:met')).toEqual(['metrics.sqlite']);
    expect(complete('scholarly-metrics sync my:')).toEqual(['metrics.sqlite']);
    expect(complete('scholarly-metrics journals list -o my:met')).toEqual(['metrics.sqlite']);
    expect(complete('scholarly-metrics papers get-many --input my:met')).toEqual(['metrics.sqlite']);
    expect(complete('scholarly-metrics journals list --output=my:met')).toEqual(['metrics.sqlite']);
    // A folder's slash is given (readline, given `dir` alone, cannot tell a folder).
    expect(complete('scholarly-metrics sync a:d')).toEqual(['dir/']);
  });

  it('completes a path with a `=` in it, replying only what follows the last `=`', () => {
    expect(complete('scholarly-metrics sync k=v')).toEqual(['v.sqlite']);
    expect(complete('scholarly-metrics journals list -o k=v')).toEqual(['v.sqlite']);
    expect(complete('scholarly-metrics journals list --output=k=v')).toEqual(['v.sqlite']);
  });

  it('counts a path with `:` or `=` as one argument: sync DB <TAB> offers journals papers', () => {
    expect(complete('scholarly-metrics sync my:metrics.sqlite ')).toEqual(['journals', 'papers']);
    expect(complete('scholarly-metrics sync my:metrics.sqlite p')).toEqual(['papers']);
    expect(complete('scholarly-metrics sync k=v.sqlite ')).toEqual(['journals', 'papers']);
    expect(complete('scholarly-metrics sync --q=a:b my:metrics.sqlite ')).toEqual(['journals', 'papers']);
    expect(complete('scholarly-metrics --base-url=http://localhost:4777 sync my:metrics.sqlite ')).toEqual([
      'journals',
      'papers',
    ]);
  });

  it('keeps --flag=value, a --fields list after `=`, and plain paths', () => {
    expect(complete('scholarly-metrics journals list --fields=id,na')).toEqual(['id,name']);
    expect(complete('scholarly-metrics journals list --fields=')).toEqual(
      expect.arrayContaining(['id', 'name', 'quartile']),
    );
    expect(complete('scholarly-metrics journals list --format=cs')).toEqual(['csv']);
    expect(complete('scholarly-metrics --format=csv completion z')).toEqual(['zsh']);
    expect(complete('scholarly-metrics sync pl')).toEqual(['plain-metrics.sqlite']);
    expect(complete('scholarly-metrics sync my')).toEqual(['my db.sqlite', 'my:metrics.sqlite']);
    expect(complete('scholarly-metrics sync --ye')).toEqual(['--year']);
  });

  it('offers nothing for a --flag=value bash left whole (`=` out of COMP_WORDBREAKS), never the bare flag', () => {
    // Readline would replace the whole word with the reply: `--output` alone would erase the value typed.
    const whole = (line: string) => bashReplies(script, line.split(' '), { line, cwd: files });
    expect(whole('scholarly-metrics journals list --output=pl')).toEqual([]);
    expect(whole('scholarly-metrics journals list --fields=na')).toEqual([]);
    expect(whole('scholarly-metrics journals list --output=pl -')).toEqual(
      expect.arrayContaining(['--fields']),
    );
  });
});

const skipTmux = skipWithoutTmux('test/cli/completion-bash-words.test.ts');

/** A bash at a real prompt in the files' folder, the script sourced; `line` typed, then `keys`. */
function prompt() {
  const { tmux, screen } = tmuxSession({
    width: 160,
    height: 20,
    command: 'bash --norc --noprofile',
    cwd: files,
  });
  /**
   * Clears the screen and waits for the bare prompt: keys sent while a command still runs would be
   * echoed by the terminal as well as by readline, and read twice in the screen.
   */
  const fresh = async () => {
    tmux('send-keys', 'clear', 'Enter');
    for (let poll = 0; poll < 200 && screen().trim() !== '$'; poll++)
      await new Promise((resolve) => setTimeout(resolve, 50));
  };
  tmux('send-keys', `source ${JSON.stringify(script)}; PS1='$ '; bind 'set bell-style none'`, 'Enter');
  /** The screen once it shows `pattern`, or after 10 s (a completion that never comes fails, fast). */
  const after = async (line: string, keys: string[], pattern: RegExp): Promise<string> => {
    await fresh();
    tmux('send-keys', '-l', line);
    tmux('send-keys', ...keys);
    for (let poll = 0; poll < 200 && !pattern.test(screen()); poll++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const shown = screen();
    tmux('send-keys', 'C-c');
    return shown;
  };
  /**
   * Types `line` and TAB, and expects the command line to read `completed` (waited for): `@`, typed
   * after TAB, marks where the cursor was left, so a space TAB added is seen.
   */
  const tab = async (line: string, completed: string) => {
    const shown = await after(line, ['Tab', '@'], new RegExp(`${literal(completed)}@`));
    const row = shown.split('\n').findLast((text) => text.startsWith('$ ') && text.includes('@'));
    expect(row === undefined ? shown : row.slice(2, row.lastIndexOf('@')), `TAB after ${line}`).toBe(
      completed,
    );
  };
  return { after, tab };
}

/** `text` as a regular expression matching it literally. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe.skipIf(skipTmux)('completion bash at a real prompt (tmux): paths with `:` and `=`', () => {
  it('TAB completes sync my:met, -o my:met, --output=my:met, sync k=v, -o k=v and a folder a:d', async () => {
    const { tab } = prompt();
    await tab('scholarly-metrics sync my:met', 'scholarly-metrics sync my:metrics.sqlite ');
    await tab(
      'scholarly-metrics journals list -o my:met',
      'scholarly-metrics journals list -o my:metrics.sqlite ',
    );
    await tab(
      'scholarly-metrics journals list --output=my:met',
      'scholarly-metrics journals list --output=my:metrics.sqlite ',
    );
    await tab('scholarly-metrics sync k=v', 'scholarly-metrics sync k=v.sqlite ');
    await tab('scholarly-metrics journals list -o k=v', 'scholarly-metrics journals list -o k=v.sqlite ');
    await tab('scholarly-metrics sync a:d', 'scholarly-metrics sync a:dir/');
  });

  it('TAB TAB after sync my:metrics.sqlite offers journals and papers, not the flags', async () => {
    const { after } = prompt();
    const shown = await after(
      'scholarly-metrics sync my:metrics.sqlite ',
      ['Tab', 'Tab'],
      /journals\s+papers/,
    );
    expect(shown).toMatch(/journals\s+papers/);
    expect(shown).not.toContain('--help');
  });

  it('TAB still completes --fields=, quoted and escaped paths with spaces, and plain paths', async () => {
    const { tab } = prompt();
    await tab(
      'scholarly-metrics journals list --fields=id,na',
      'scholarly-metrics journals list --fields=id,name',
    );
    await tab('scholarly-metrics sync "my d', 'scholarly-metrics sync "my db.sqlite" ');
    await tab('scholarly-metrics sync my\\ d', 'scholarly-metrics sync my\\ db.sqlite ');
    await tab('scholarly-metrics sync "my:m', 'scholarly-metrics sync "my:metrics.sqlite" ');
    await tab('scholarly-metrics sync my\\:m', 'scholarly-metrics sync my\\:metrics.sqlite ');
    await tab('scholarly-metrics sync pl', 'scholarly-metrics sync plain-metrics.sqlite ');
  });
});

/**
 * The zsh completion script, run by zsh itself: an interactive zsh (in zsh's own pseudo-terminal,
 * zpty) with compinit, the script installed as docs/cli.md says (saved in $fpath, or sourced), a
 * command line typed and completed. What it offers and what the line becomes are read back.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../helpers/real-part.js';
import { run } from './helpers.js';

const skipZsh = skipWithout(
  { name: 'zsh', present: spawnSync('zsh', ['--version']).status === 0, install: 'apt-get install zsh' },
  'test/cli/completion-zsh.test.ts',
);

const folder = mkdtempSync(join(tmpdir(), 'scholarly-completion-zsh-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const { code, stdout: script } = await run(['completion', 'zsh'], { key: undefined });
if (code !== 0) throw new Error(`completion zsh exited ${code}`);
const sourced = join(folder, 'completion.zsh');
writeFileSync(sourced, script);
const functions = join(folder, 'functions');
mkdirSync(functions);
writeFileSync(join(functions, '_scholarly-metrics'), script);

/**
 * Run by `zsh -f capture.zsh SETUP LINE`: an interactive zsh runs SETUP after compinit, types LINE
 * and completes it (a widget on ^T: complete-word, then the line). Each match compadd adds is printed
 * `<m>MATCH`, then `<m>BUFFER:LINE`, then `<end>`; each marker is written in two pieces, so that the
 * terminal's echo of the commands is never taken for one.
 */
const capture = join(folder, 'capture.zsh');
writeFileSync(
  capture,
  `zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PS1=''; $1; autoload -U compinit && compinit -u -D; $2"
zpty -w z 'compadd() { local -a m; builtin compadd -O m "$@"; builtin compadd "$@"; print -l -- "<""m>"$^m >/dev/tty; }'
zpty -w z 'capture() { zle complete-word; print -r -- "<""m>BUFFER:$BUFFER" >/dev/tty; print "<""end>" >/dev/tty; }'
zpty -w z 'zle -N capture; bindkey "^T" capture'
zpty -n -w z "$3"$'\\C-t'
local line
while zpty -r z line; do
  [[ $line == *'<end>'* ]] && break
  [[ $line == *'<m>'* ]] && print -r -- "\${\${line#*<m>}%%$'\\r'*}"
done
zpty -d z
`,
);

const setups = {
  // As docs/cli.md installs it: saved as _scholarly-metrics in a folder of $fpath, before compinit.
  fpath: [`fpath=(${JSON.stringify(functions)} $fpath)`, ''],
  sourced: ['', `source ${JSON.stringify(sourced)}`],
} as const;

/** What zsh offers for `line` completed in `cwd`, and the line it leaves. */
function complete(line: string, setup: keyof typeof setups, cwd = folder) {
  const zsh = spawnSync('zsh', ['-f', capture, ...setups[setup], line], {
    encoding: 'utf8',
    cwd,
    timeout: 20_000,
  });
  expect(zsh.status, zsh.stderr).toBe(0);
  const lines = zsh.stdout.split('\n').filter((entry) => entry !== '');
  const buffer = lines.find((entry) => entry.startsWith('BUFFER:'));
  if (buffer === undefined) throw new Error(`zsh never completed ${line}: ${zsh.stdout}${zsh.stderr}`);
  return { offered: lines.filter((entry) => entry !== buffer), line: buffer.slice('BUFFER:'.length) };
}

describe.skipIf(skipZsh)('completion zsh, run by zsh', () => {
  it.each(Object.keys(setups) as (keyof typeof setups)[])(
    'completes from the first TAB, %s: commands, choices, help',
    (setup) => {
      expect(complete('scholarly-metrics pa', setup).line).toBe('scholarly-metrics papers ');
      expect(complete('scholarly-metrics papers get', setup).offered).toEqual(['get', 'get-many']);
      expect(complete('scholarly-metrics journals list --format ', setup).offered).toEqual(
        expect.arrayContaining(['csv', 'parquet', 'sqlite']),
      );
      expect(complete('scholarly-metrics completion ', setup).offered).toEqual(['bash', 'zsh', 'fish']);
      expect(complete('scholarly-metrics help papers ', setup).offered).toEqual([
        'search',
        'get',
        'get-many',
      ]);
      expect(complete('scholarly-metrics papers search --sort ', setup).offered).toEqual([]);
    },
  );

  it("keeps a comma list of --fields one word: no space after a field's name", () => {
    for (const setup of ['sourced', 'fpath'] as const)
      expect(complete('scholarly-metrics journals list --fields id,na', setup).line).toBe(
        'scholarly-metrics journals list --fields id,name',
      );
  });

  it.each(Object.keys(setups) as (keyof typeof setups)[])(
    'completes the value of --option=value, %s, and reads such words before it as options',
    (setup) => {
      expect(complete('scholarly-metrics journals list --fields=id,na', setup).line).toBe(
        'scholarly-metrics journals list --fields=id,name',
      );
      expect(complete('scholarly-metrics journals list --format=', setup).offered).toEqual(
        expect.arrayContaining(['csv', 'parquet', 'sqlite']),
      );
      expect(complete('scholarly-metrics papers search --oa=t', setup).line).toBe(
        'scholarly-metrics papers search --oa=true ',
      );
      // An option given as --option=value is one word to zsh: the command's arguments come after it.
      expect(complete('scholarly-metrics --format=csv pa', setup).line).toBe(
        'scholarly-metrics --format=csv papers ',
      );
    },
  );

  it('completes paths after --input and for sync DATABASE: a name with spaces quoted, a folder with its slash', () => {
    const files = mkdtempSync(join(tmpdir(), 'scholarly-completion-zsh-files-'));
    try {
      writeFileSync(join(files, 'reef dois.txt'), '');
      mkdirSync(join(files, 'metrics'));
      writeFileSync(join(files, 'metrics', 'all.sqlite'), '');
      const input = complete('scholarly-metrics papers get-many --input re', 'fpath', files);
      expect(input.line).toBe('scholarly-metrics papers get-many --input reef\\ dois.txt ');
      // A path after --option=: completed after the `=`, looked for from the folder typed after it.
      expect(complete('scholarly-metrics papers get-many --input=re', 'sourced', files).line).toBe(
        'scholarly-metrics papers get-many --input=reef\\ dois.txt ',
      );
      expect(complete('scholarly-metrics journals list --output=metrics/a', 'fpath', files).line).toBe(
        'scholarly-metrics journals list --output=metrics/all.sqlite ',
      );
      expect(complete('scholarly-metrics sync met', 'sourced', files).line).toBe(
        'scholarly-metrics sync metrics/',
      );
      expect(complete('scholarly-metrics sync metrics/a', 'sourced', files).line).toBe(
        'scholarly-metrics sync metrics/all.sqlite ',
      );
      // The database given, its WHAT offers its choices, not files.
      expect(complete('scholarly-metrics sync metrics/all.sqlite ', 'sourced', files).offered).toEqual([
        'journals',
        'papers',
      ]);
    } finally {
      rmSync(files, { recursive: true, force: true });
    }
  });

  it("completes a path with `:` or `=` in its name whole (the bash function, given zsh's words)", () => {
    const files = mkdtempSync(join(tmpdir(), 'scholarly-completion-zsh-breaks-'));
    try {
      writeFileSync(join(files, 'my:metrics.sqlite'), '');
      writeFileSync(join(files, 'k=v.sqlite'), '');
      expect(complete('scholarly-metrics sync my:met', 'sourced', files).line).toBe(
        'scholarly-metrics sync my:metrics.sqlite ',
      );
      expect(complete('scholarly-metrics sync my:metrics.sqlite ', 'sourced', files).offered).toEqual([
        'journals',
        'papers',
      ]);
      expect(complete('scholarly-metrics journals list -o k=v', 'fpath', files).line).toBe(
        'scholarly-metrics journals list -o k=v.sqlite ',
      );
      expect(complete('scholarly-metrics journals list --output=my:m', 'fpath', files).line).toBe(
        'scholarly-metrics journals list --output=my:metrics.sqlite ',
      );
    } finally {
      rmSync(files, { recursive: true, force: true });
    }
  });

  it.each(Object.keys(setups) as (keyof typeof setups)[])(
    'completes a path typed with its spaces backslash-quoted or in quotes, %s: folder, then file',
    (setup) => {
      const files = mkdtempSync(join(tmpdir(), 'scholarly-completion-zsh-spaces-'));
      try {
        mkdirSync(join(files, 'cdir', 'my dir'), { recursive: true });
        writeFileSync(join(files, 'cdir', 'my dir', 'a b.csv'), '');
        writeFileSync(join(files, 'my file.csv'), '');
        // Two TABs, the second on the line the first left: zsh's word still holds its backslashes.
        const folderLine = complete('scholarly-metrics papers get-many --input cdir/my', setup, files).line;
        expect(folderLine).toBe('scholarly-metrics papers get-many --input cdir/my\\ dir/');
        expect(complete(folderLine, setup, files).line).toBe(
          'scholarly-metrics papers get-many --input cdir/my\\ dir/a\\ b.csv ',
        );
        const partial = complete('scholarly-metrics papers get-many -o my\\ f', setup, files);
        expect(partial.offered).toEqual(['my file.csv']);
        expect(partial.line).toBe('scholarly-metrics papers get-many -o my\\ file.csv ');
        expect(complete('scholarly-metrics papers get-many --failed "my f', setup, files).line).toBe(
          'scholarly-metrics papers get-many --failed "my file.csv" ',
        );
        // A quote opened after an option's `=`: zsh requotes such a word with backslashes, and so does
        // its own completion of an option's value (_arguments with _files).
        expect(complete('scholarly-metrics papers get-many --failed="my f', setup, files).line).toBe(
          'scholarly-metrics papers get-many --failed=my\\ file.csv ',
        );
        expect(complete("scholarly-metrics papers get-many --input='cdir/my d", setup, files).line).toBe(
          'scholarly-metrics papers get-many --input=cdir/my\\ dir/',
        );
        expect(complete('scholarly-metrics sync cdir/my\\ dir/a', setup, files).line).toBe(
          'scholarly-metrics sync cdir/my\\ dir/a\\ b.csv ',
        );
      } finally {
        rmSync(files, { recursive: true, force: true });
      }
    },
  );
});

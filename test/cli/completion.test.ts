/**
 * The completion scripts, run by the shells themselves: bash sources the script and completes with
 * the function it registered (`complete -p`, `COMPREPLY`); fish completes with `complete -C`. zsh is
 * run in completion-zsh.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../helpers/real-part.js';
import { bashReplies } from './bash-completion.js';
import { run } from './helpers.js';
import { scratch } from './resume.js';
import { skipWithoutTmux, tmuxSession } from './tmux.js';

// Written once for the file: every case sources the same script.
const folder = mkdtempSync(join(tmpdir(), 'scholarly-completion-'));
const script = join(folder, 'completion.bash');
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const scripts = Object.fromEntries(
  await Promise.all(
    (['bash', 'zsh', 'fish'] as const).map(async (shell) => {
      // In-process, as `scholarly-metrics completion <shell>` prints it; no key needed.
      const { code, stdout } = await run(['completion', shell], { key: undefined });
      if (code !== 0) throw new Error(`completion ${shell} exited ${code}`);
      return [shell, stdout] as const;
    }),
  ),
);
writeFileSync(script, scripts.bash!);

/** The words bash offers for the command line `line` (the cursor at its end), run in `cwd`. */
const complete = (line: string, cwd?: string) => bashReplies(script, line.split(' '), cwd ? { cwd } : {});

describe('completion bash', () => {
  it('registers a completion function for the command', () => {
    const bash = spawnSync(
      'bash',
      ['--norc', '-c', `source ${JSON.stringify(script)}; complete -p scholarly-metrics`],
      {
        encoding: 'utf8',
      },
    );
    expect(bash.stdout.trim()).toBe('complete -F _scholarly_metrics scholarly-metrics');
  });

  it('completes commands, subcommands, flags and the values of flags with choices', () => {
    expect(complete('scholarly-metrics ')).toEqual(expect.arrayContaining(['journals', 'papers', 'authors']));
    expect(complete('scholarly-metrics pa')).toEqual(['papers']);
    expect(complete('scholarly-metrics papers ')).toEqual(
      expect.arrayContaining(['search', 'get', 'get-many']),
    );
    expect(complete('scholarly-metrics papers get')).toEqual(['get', 'get-many']);
    expect(complete('scholarly-metrics papers search --li')).toEqual(['--limit']);
    expect(complete('scholarly-metrics --mock papers search --q x --al')).toEqual(['--all']);
    expect(complete('scholarly-metrics journals list --format ')).toEqual(
      expect.arrayContaining(['table', 'json', 'jsonl', 'csv']),
    );
    expect(complete('scholarly-metrics papers search --oa ')).toEqual(['true', 'false']);
    // Global flags are offered after a command too.
    expect(complete('scholarly-metrics journals list --mo')).toEqual(['--mock']);
  });

  it("completes --fields with the command's field names, each of a comma list", () => {
    expect(complete('scholarly-metrics journals list --fields ')).toEqual(
      expect.arrayContaining(['id', 'name', 'quartile', 'total_cites']),
    );
    expect(complete('scholarly-metrics journals list --fields qu')).toEqual(['quartile']);
    // After a comma: the names typed so far kept, the one being typed completed.
    expect(complete('scholarly-metrics journals list --fields id,name,qu')).toEqual(['id,name,quartile']);
    expect(complete('scholarly-metrics journals score --fields journal_')).toEqual(['journal_id']);
    expect(complete('scholarly-metrics papers get-many --fields ti')).toEqual(['title']);
    // Each command its own fields: a journal has no doi.
    expect(complete('scholarly-metrics journals list --fields do')).toEqual([]);
    // A field listed already is not offered again.
    expect(complete('scholarly-metrics journals list --fields id,name,')).not.toContain('id,name,id');
    expect(complete('scholarly-metrics journals list --fields id,name,')).toContain('id,name,quartile');
  });

  it('completes a value after `=` as after a space (bash makes the `=` a word of its own)', () => {
    expect(complete('scholarly-metrics journals list --fields = qu')).toEqual(['quartile']);
    expect(complete('scholarly-metrics journals list --fields =')).toEqual(
      expect.arrayContaining(['id', 'name', 'quartile']),
    );
    expect(complete('scholarly-metrics journals list --format =')).toEqual(
      expect.arrayContaining(['table', 'csv']),
    );
    // The flag and its value are skipped: the next word is still the command's first argument.
    expect(complete('scholarly-metrics --format = csv completion z')).toEqual(['zsh']);
  });

  it('completes the choices of an argument: completion SHELL, sync DB WHAT', () => {
    expect(complete('scholarly-metrics completion ')).toEqual(['bash', 'zsh', 'fish']);
    expect(complete('scholarly-metrics completion z')).toEqual(['zsh']);
    expect(complete('scholarly-metrics sync metrics.sqlite ')).toEqual(['journals', 'papers']);
    // A flag's value is not an argument: the database is still the first.
    expect(complete('scholarly-metrics sync --q climate metrics.sqlite p')).toEqual(['papers']);
    // Flags stay one `-` away.
    expect(complete('scholarly-metrics completion --he')).toEqual(['--help']);
  });

  it('completes help with the commands, then the subcommands of the one named', () => {
    expect(complete('scholarly-metrics help ')).toEqual(
      expect.arrayContaining(['journals', 'papers', 'authors', 'sync', 'completion']),
    );
    expect(complete('scholarly-metrics help papers ')).toEqual(['search', 'get', 'get-many']);
    expect(complete('scholarly-metrics help journals s')).toEqual(['score']);
  });

  it('offers no flags as the value of a flag that takes free text or a number', () => {
    for (const flag of ['--sort', '--q', '--year', '--limit', '--per-page'])
      expect(complete(`scholarly-metrics papers search ${flag} `)).toEqual([]);
    expect(complete('scholarly-metrics --base-url ')).toEqual([]);
    // Its value once given, flags are offered again.
    expect(complete('scholarly-metrics papers search --sort -citations --li')).toEqual(['--limit']);
  });

  it('completes a path after --input, -o and --failed, a name with spaces kept whole', () => {
    const files = mkdtempSync(join(tmpdir(), 'scholarly-completion-files-'));
    try {
      for (const name of ['reef dois.txt', 'reef  two.csv', 'other.txt'])
        writeFileSync(join(files, name), '');
      const expected = ['reef  two.csv', 'reef dois.txt'];
      for (const flag of ['--input', '-o', '--failed']) {
        expect(complete(`scholarly-metrics papers get-many ${flag} re`, files).sort()).toEqual(expected);
      }
      // sync's DATABASE is a file too: paths in its place, flags once `-` is typed.
      expect(complete('scholarly-metrics sync ', files).sort()).toEqual(['other.txt', ...expected]);
      expect(complete('scholarly-metrics sync --q climate re', files).sort()).toEqual(expected);
      expect(complete('scholarly-metrics sync --ye', files)).toEqual(['--year']);
    } finally {
      rmSync(files, { recursive: true, force: true });
    }
  });
});

const skipTmux = skipWithoutTmux('test/cli/completion.test.ts (the tmux case)');

describe.skipIf(skipTmux)('completion bash at a real prompt (tmux)', () => {
  it('Tab inserts a file name with spaces quoted, as one word', async () => {
    const folder = scratch();
    writeFileSync(join(folder, 'reef dois.txt'), '');
    const { tmux, until } = tmuxSession({
      width: 120,
      height: 10,
      command: 'bash --norc --noprofile',
      cwd: folder,
    });
    tmux('send-keys', `source ${JSON.stringify(script)}; PS1='$ '; clear`, 'Enter');
    tmux('send-keys', 'scholarly-metrics papers get-many --input re', 'Tab');
    const screen = await until(/--input reef/);
    expect(screen).toContain('--input reef\\ dois.txt');
  });

  it('Tab completes a field after `--fields=` as after a space', async () => {
    const { tmux, until } = tmuxSession({ width: 120, height: 10, command: 'bash --norc --noprofile' });
    tmux('send-keys', `source ${JSON.stringify(script)}; PS1='$ '; clear`, 'Enter');
    tmux('send-keys', 'scholarly-metrics journals list --fields=id,qu', 'Tab');
    const screen = await until(/--fields=id,quartile/);
    expect(screen).toContain('--fields=id,quartile');
  });
});

const skipFish = skipWithout(
  { name: 'fish', present: spawnSync('fish', ['--version']).status === 0, install: 'apt-get install fish' },
  'test/cli/completion.test.ts (the fish cases)',
);

describe('completion zsh and fish', () => {
  it('zsh: a #compdef file that loads bashcompinit; fish names every command where its path is exact', () => {
    expect(scripts.zsh).toMatch(
      /^#compdef scholarly-metrics\n.*\nautoload -U \+X bashcompinit && bashcompinit\n/,
    );
    const fish = scripts.fish!;
    expect(fish).toContain(`complete -c scholarly-metrics -f -n '__scholarly_metrics_at "" 0' -a journals`);
    expect(fish).toContain(`-n '__scholarly_metrics_at "papers search"' -l limit -x`);
    expect(fish).toContain(`-n '__scholarly_metrics_at "completion" 0' -a 'bash zsh fish'`);
    expect(fish).toContain(`-n '__scholarly_metrics_at "sync" 1' -a 'journals papers'`);
    expect(fish).toContain(`-n '__scholarly_metrics_at help 1 "papers"' -a 'search get get-many'`);
    // --fields offers the command's field names, a comma list completed by the script's own function.
    expect(fish).toContain(
      `-l fields -x -a '(__scholarly_metrics_fields id,name,metric_score,quartile,description,oa)'`,
    );
    if (!skipFish) {
      const checked = spawnSync('fish', ['--no-execute', '-c', fish], { encoding: 'utf8' });
      expect(checked.status).toBe(0);
    }
  });
});

/** The words fish offers for the command line `line` (the cursor at its end). */
function completeFish(line: string): string[] {
  const fish = spawnSync(
    'fish',
    [
      '--no-config',
      '-c',
      `source ${JSON.stringify(join(folder, 'completion.fish'))}; complete -C $argv[1]`,
      line,
    ],
    { encoding: 'utf8', cwd: folder },
  );
  expect(fish.stderr).toBe('');
  return fish.stdout
    .split('\n')
    .filter((entry) => entry !== '')
    .map((entry) => entry.split('\t')[0]!);
}

describe.skipIf(skipFish)('completion fish, run by fish', () => {
  it("offers arguments' choices, help's commands, and each group's subcommands only under it", () => {
    writeFileSync(join(folder, 'completion.fish'), scripts.fish!);
    expect(completeFish('scholarly-metrics completion ')).toEqual(['bash', 'fish', 'zsh']);
    expect(completeFish('scholarly-metrics sync --q x metrics.sqlite ')).toEqual(['journals', 'papers']);
    expect(completeFish('scholarly-metrics help papers ')).toEqual(['get', 'get-many', 'search']);
    // `journals papers` is the journals subcommand, not the papers group.
    expect(completeFish('scholarly-metrics journals papers ')).not.toContain('search');
    expect(completeFish('scholarly-metrics journals papers 42 --li')).toEqual(['--limit']);
    expect(completeFish('scholarly-metrics papers search --sort ')).toEqual([]);
    expect(completeFish('scholarly-metrics journals list --fields id,na')).toEqual(['id,name']);
  });

  it('offers after a comma only the fields not listed yet, as bash and zsh do', () => {
    writeFileSync(join(folder, 'completion.fish'), scripts.fish!);
    const offered = completeFish('scholarly-metrics journals list --fields id,name,');
    expect(offered).toContain('id,name,issn');
    expect(offered).not.toContain('id,name,id');
    expect(offered).not.toContain('id,name,name');
    // After `=` the list is kept before each field offered, and `--fields=` is not read as one.
    const joined = completeFish('scholarly-metrics journals list --fields=id,name,');
    expect(joined).toContain('--fields=id,name,issn');
    expect(joined).not.toContain('--fields=id,name,id');
  });

  it("offers paths for sync's DATABASE and after a file flag, and none for an id or a DOI", () => {
    writeFileSync(join(folder, 'completion.fish'), scripts.fish!);
    writeFileSync(join(folder, 'metrics.sqlite'), '');
    expect(completeFish('scholarly-metrics sync met')).toEqual(['metrics.sqlite']);
    expect(completeFish('scholarly-metrics --mock sync --q x met')).toEqual(['metrics.sqlite']);
    expect(completeFish('scholarly-metrics papers get-many --input met')).toEqual(['metrics.sqlite']);
    expect(completeFish('scholarly-metrics journals get met')).toEqual([]);
    expect(completeFish('scholarly-metrics papers get-many met')).toEqual([]);
  });
});

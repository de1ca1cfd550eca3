// Runs the bash completion script's function as bash would on TAB, for the completion tests.
import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';

/**
 * What the completion function of `script` replies to COMP_WORDS `words`, the cursor on the last;
 * with `line`, COMP_LINE and COMP_POINT (at its end) as bash sets them; run in `cwd`.
 */
export function bashReplies(
  script: string,
  words: readonly string[],
  { line, cwd }: { line?: string; cwd?: string } = {},
): string[] {
  const typed = line === undefined ? '' : `\nCOMP_LINE=${JSON.stringify(line)}; COMP_POINT=${line.length}`;
  const bash = spawnSync(
    'bash',
    [
      '--norc',
      '-c',
      `source ${JSON.stringify(script)}
COMP_WORDS=(${words.map((word) => JSON.stringify(word)).join(' ')}); COMP_CWORD=${words.length - 1}${typed}
_scholarly_metrics; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: 'utf8', cwd },
  );
  expect(bash.stderr).toBe('');
  return bash.stdout.split('\n').filter((word) => word !== '');
}

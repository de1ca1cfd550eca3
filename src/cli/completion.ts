/**
 * `scholarly-metrics completion bash|zsh|fish`: a script that completes commands, subcommands,
 * flags, the values of flags with choices and the field names of `--fields` (each of a comma list),
 * written from the command tree itself so it never falls behind. The field names are written into
 * the script rather than asked of the bin at each TAB: a Node start-up per keystroke is slow, and
 * the fields change only with the version that wrote the script. zsh runs the bash function with the
 * `compgen` of its `bashcompinit` (see completion-zsh.ts).
 */
import type { Command } from 'commander';
import { bashScript } from './completion-bash.js';
import { fishScript } from './completion-fish.js';
import { zshScript } from './completion-zsh.js';

export { offerFields } from './completion-tree.js';

export const shells = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof shells)[number];

/** The completion script for `shell`. */
export function completionScript(program: Command, shell: Shell): string {
  const name = program.name();
  const completer = `_${name.replace(/[^A-Za-z0-9]/g, '_')}`;
  if (shell === 'fish') return fishScript(program);
  if (shell === 'zsh') return zshScript(name, completer, bashScript(program, completer));
  return `# ${name} completion for bash: source this file, or put it in
# ~/.local/share/bash-completion/completions/${name}
${bashScript(program, completer)}
complete -F ${completer} ${name}
`;
}

/**
 * The zsh completion script: the bash function, run with the `compgen` of zsh's `bashcompinit` (as
 * zsh documents for bash scripts), but called by a zsh function of its own rather than by
 * bashcompinit's `_bash_complete`. That one calls the bash function in a subshell, where what the
 * function asks of `compopt` is lost: a space would follow `--fields id,name` and a folder's name.
 */
import { fillTemplate } from './completion-template.js';

/**
 * The script's text: `{{bash}}` the bash functions, `{{completer}}` the one bash calls, `{{adapter}}`
 * the zsh function that calls it, `{{name}}` the command's.
 */
const script = `#compdef {{name}}
# {{name}} completion for zsh: save as _{{name}} in a folder of $fpath, or source it after compinit
autoload -U +X bashcompinit && bashcompinit
{{bash}}
# bashcompinit's compgen -f ignores the word it is given and globs zsh's $PREFIX in sh emulation: as
# typed, backslashes kept and split at its spaces. The files are listed here instead, zsh's way.
{{completer}}_files() {
  emulate -L zsh
  COMPREPLY=("$1"*(N))
  compopt -o filenames
}
# The bash function with the words as bash would give them, in sh emulation as bashcompinit's compgen
# runs it; its compopt calls noted (no space after a field of a comma list, file names) and done.
# zsh's $words are as typed, bash's unquoted: \`my\\ f\` and \`"my f\` are the name \`my f\`, the quote
# still open in the word being completed closed before it is unquoted. A quote opened inside the word
# (\`--output="my f\`) is not zsh's quote of the word: zsh gives that word's text in $PREFIX, requoted.
{{adapter}}() {
  local -a COMP_WORDS COMPREPLY asked
  local COMP_CWORD=$((CURRENT - 1)) saved=\${functions[compopt]-} ret=1
  COMP_WORDS=("\${(@Q)words}")
  if [[ -n \${compstate[quote]} ]]; then
    COMP_WORDS[CURRENT]=\${(Q)\${:-\${words[CURRENT]}\${compstate[quote][-1]}}}
  else
    COMP_WORDS[CURRENT]=\${(Q)PREFIX}\${(Q)SUFFIX}
  fi
  # zsh keeps --option=value one word, where bash makes three of it (--option, =, value): made bash's,
  # and a value being completed completes after its option's \`=\`.
  local -a split
  local i valued=0
  for (( i = 1; i <= $#COMP_WORDS; i++ )); do
    if [[ \${COMP_WORDS[i]} == --*=* ]]; then
      split+=("\${COMP_WORDS[i]%%=*}" = "\${COMP_WORDS[i]#*=}")
      (( i <= CURRENT )) && (( COMP_CWORD += 2 ))
      (( i == CURRENT )) && valued=1
    else
      split+=("\${COMP_WORDS[i]}")
    fi
  done
  COMP_WORDS=("\${split[@]}")
  functions[compopt]='[[ $1 = -o ]] && asked+=("$2")'
  {
    () {
      emulate -L sh
      setopt kshglob noshglob braceexpand
      # The bash function has a variable words of its own: compsys's stays as it is.
      typeset -h words
      {{completer}}
    }
  } always {
    if [[ -n $saved ]]; then functions[compopt]=$saved; else unfunction compopt; fi
  }
  (( valued )) && compset -P 1 '*='
  local option=$IPREFIX
  if (( \${asked[(I)filenames]} )); then
    # The folder typed so far kept as it is; each name tested there (unquoted), a folder's given its
    # slash. Each name is quoted as compadd inserts it: \`a b.csv\` becomes \`a\\ b.csv\`.
    compset -P '*/' && COMPREPLY=("\${COMPREPLY[@]##*/}")
    compadd -f -W "\${(Q)\${IPREFIX#$option}}" -a COMPREPLY && ret=0
  elif (( \${asked[(I)nospace]} )); then
    compadd -S '' -a COMPREPLY && ret=0
  else
    compadd -a COMPREPLY && ret=0
  fi
  return ret
}
if [[ "\${funcstack[1]}" = "_{{name}}" ]]; then
  {{adapter}} "$@"
else
  compdef {{adapter}} {{name}}
fi
`;

/**
 * The script for the command `name` whose bash function `completer` is defined by `bash`. Its
 * `#compdef` line lets compinit bind the file saved as `_NAME` in a folder of $fpath; loaded so by the
 * first TAB, the file completes that TAB too. Sourced after compinit, it binds the command itself.
 */
export function zshScript(name: string, completer: string, bash: string): string {
  return fillTemplate(script, { name, completer, adapter: `${completer}_zsh`, bash });
}

/**
 * The bash completion script: three functions whose fixed text is written below once, with the parts
 * computed from the command tree (its paths, flags, choices and fields) filled in at each `{{name}}`.
 * zsh runs the same functions with the `compgen` of its `bashcompinit` (see completion-zsh.ts).
 */
import type { Command } from 'commander';
import { fillTemplate } from './completion-template.js';
import {
  commandFields,
  fileArgumentIndexes,
  fileFlags,
  flagsOf,
  type Node,
  nodes,
  subcommandNames,
  valueFlags,
} from './completion-tree.js';

/** `{{files}} WORD`: the paths that begin with WORD, one reply each. */
const filesFunction = `{{files}}() {
  # One path a line, each kept whole (spaces and all); filenames: bash quotes what it inserts.
  COMPREPLY=()
  local file
  while IFS= read -r file; do COMPREPLY+=("$file"); done < <(compgen -f -- "$1")
  compopt -o filenames 2>/dev/null
  # After a \`:\` or \`=\` each reply is cut to what follows it (see below), and readline, no longer
  # given the whole path, cannot tell a folder: its slash is added here, no space after a lone one.
  if [[ -n "\${lead-}" ]]; then
    local i
    for ((i = 0; i < \${#COMPREPLY[@]}; i++)); do [[ -d "\${COMPREPLY[i]}" ]] && COMPREPLY[i]+=/; done
    [[ \${#COMPREPLY[@]} -eq 1 && "\${COMPREPLY[0]}" == */ ]] && compopt -o nospace 2>/dev/null
  fi
  return 0
}`;

/**
 * `{{fn}}`, the function bash calls: the words of the line joined again where bash split them at a `:`
 * or `=`, then `{{fn}}_offer` asked for the replies.
 */
const wordsFunction = `{{fn}}() {
  # bash splits the line into COMP_WORDS at each character of COMP_WORDBREAKS, \`:\` and \`=\` among
  # them: \`sync my:db.sqlite\` comes as sync, my, :, db.sqlite. The words are joined again where no
  # blank separated them in the line typed (COMP_LINE), as bash-completion's \`_comp_get_words -n =:\`
  # does: W and C are the words and the one at the cursor, \`--flag=value\` split at its first \`=\` only.
  # readline replaces just what follows the last \`:\` or \`=\` of the word, so \`lead\`, the part of the
  # word before it, is cut from each reply (bash-completion's \`__ltrim_colon_completions\`). Without a
  # line that matches the words (zsh, which splits at neither), the words are taken as they are.
  local -a W=("\${COMP_WORDS[@]}") J=()
  local C=$COMP_CWORD lead="" line="\${COMP_LINE-}" ok=1 after=0 gap piece j K=0 L="" whole=0
  if [[ -n "$line" ]]; then
    for ((j = 0; ok && j < \${#COMP_WORDS[@]}; j++)); do
      piece="\${COMP_WORDS[j]}"
      gap="\${line%%[![:space:]]*}"
      line="\${line#"$gap"}"
      if [[ "\${line:0:\${#piece}}" != "$piece" ]]; then ok=0; break; fi
      line="\${line:\${#piece}}"
      # A piece of \`:\` and \`=\` joins the word before it, and the piece after it joins it, unless a
      # blank came between (the command's name is never joined).
      if [[ -z "$gap" && \${#J[@]} -gt 1 ]] && { ((after)) || [[ -n "$piece" && -z "\${piece//[:=]/}" ]]; }; then
        J[\${#J[@]}-1]+="$piece"
      else
        J+=("$piece")
      fi
      after=0; [[ -n "$piece" && -z "\${piece//[:=]/}" ]] && after=1
      if ((j == COMP_CWORD)); then
        K=$((\${#J[@]} - 1)) L="\${J[K]}"
        ((after)) || L="\${L%"$piece"}"
      fi
    done
    if ((ok)); then
      W=() C=0
      # A \`--flag=value\` bash did not split (\`=\` taken out of COMP_WORDBREAKS) stays whole at the
      # cursor: readline would replace all of it with the reply, so nothing is offered, as before.
      piece="\${COMP_WORDS[COMP_CWORD]}"
      [[ "$piece" == *=* && -n "\${piece//[:=]/}" ]] && whole=1
      for ((j = 0; j < \${#J[@]}; j++)); do
        piece="\${J[j]}"
        if [[ "$piece" == --*=* ]] && ! ((j == K && whole)); then
          W+=("\${piece%%=*}" = "\${piece#*=}")
          # At the cursor: its value, or the flag itself when the cursor is before the \`=\`.
          if ((j == K)) && [[ "$L" == "\${piece%%=*}="* ]]; then
            L="\${L#"\${piece%%=*}="}"
            C=$((\${#W[@]} - 1))
          elif ((j == K)); then
            C=$((\${#W[@]} - 3))
          fi
        else
          W+=("$piece")
          ((j == K)) && C=$((\${#W[@]} - 1))
        fi
      done
      lead="$L"
    fi
  fi
  COMPREPLY=()
  {{fn}}_offer
  [[ -n "$lead" ]] && COMPREPLY=("\${COMPREPLY[@]#"$lead"}")
  return 0
}`;

/** `{{fn}}_offer`: the replies for the word `W[C]`, from the command's path and the words before it. */
const offerFunction = `{{fn}}_offer() {
  local cur="\${W[C]}" prev="\${W[C-1]}" path="" args="" n=0 word words="" i
  # \`--fields=na\`: bash splits at the \`=\` (a word of its own); the value is completed as after a space.
  if [[ "$cur" == "=" ]]; then cur=""
  elif [[ "$prev" == "=" ]]; then prev="\${W[C-2]}"; fi
  # The command's path, then its arguments: each flag skipped, with its value when it takes one.
  for ((i = 1; i < C; i++)); do
    word="\${W[i]}"
    case "$word" in
      {{valueFlags}}) ((i++)); [[ "\${W[i]}" == "=" ]] && ((i++)); continue ;;
      -*) [[ "\${W[i+1]}" == "=" ]] && ((i += 2)); continue ;;
    esac
    case "$path:$word" in
      {{steps}}) path="\${path:+$path }$word" args="" n=0 ;;
      *) args="\${args:+$args }$word"; n=$((n + 1)) ;;
    esac
  done
  case "$prev" in
{{valueCases}}
    --fields)
      case "$path" in
{{fieldCases}}
        *) words="" ;;
      esac
      # A comma list: the field being typed is what follows the last comma, the rest kept as typed,
      # and a field listed already is not offered again.
      local listed="" left="" field
      [[ "$cur" == *,* ]] && listed="\${cur%,*},"
      for field in $words; do [[ ",$listed" == *",$field,"* ]] || left="$left $field"; done
      COMPREPLY=($(compgen -P "$listed" -W "$left" -- "\${cur##*,}"))
      compopt -o nospace 2>/dev/null
      return ;;
    {{fileFlags}}) {{files}} "$cur"; return ;;
    {{freeValues}})
      # A value of the user's own (a query, a year, a number): nothing to offer, and no flag.
      COMPREPLY=()
      return ;;
  esac
  # An argument with choices offers them, one that names a file a path; a flag is offered where no
  # argument offers anything, or once \`-\` is typed.
  if [[ "$cur" != -* ]]; then
    case "$path:$n" in
{{argumentCases}}
      help:*)
        case "$args" in
{{helpCases}}
        esac ;;
    esac
  fi
  if [[ -z "$words" ]]; then
    case "$path" in
{{wordCases}}
    esac
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}`;

const bashFunctions = [filesFunction, wordsFunction, offerFunction].join('\n');

/** The long flags of `command`. */
const longFlags = (command: Command) =>
  command.options.flatMap((option) => (option.long ? [option.long] : []));

/** Each step of the command tree as `PATH:NAME` (a subcommand NAME of the command at PATH). */
function steps(all: readonly Node[]): string[] {
  return all
    .filter((node) => node.path.length > 0)
    .map((node) => `"${node.path.slice(0, -1).join(' ')}:${node.path.at(-1)}"`);
}

/** Each flag that takes one of a few values (`--format`), with its values. */
function flagChoices(all: readonly Node[]): Map<string, readonly string[]> {
  const choices = new Map<string, readonly string[]>();
  for (const { command } of all)
    for (const option of command.options)
      if (option.argChoices) for (const flag of flagsOf(option)) choices.set(flag, option.argChoices);
  return choices;
}

/** `--format <TAB>`: the values of the flag. */
function valueCases(choices: ReadonlyMap<string, readonly string[]>): string[] {
  return [...choices].map(
    ([flag, values]) => `    ${flag}) COMPREPLY=($(compgen -W "${values.join(' ')}" -- "$cur")); return ;;`,
  );
}

/** `--fields <TAB>`: the field names of the command at the path. */
function fieldCases(all: readonly Node[]): string[] {
  return all.flatMap(({ path, command }) => {
    const paths = commandFields.get(command);
    return paths === undefined ? [] : [`        "${path.join(' ')}") words="${paths.join(' ')}" ;;`];
  });
}

/** What the command at each path offers where nothing else does: subcommands, flags, `--help`. */
function wordCases(all: readonly Node[], globals: readonly string[]): string[] {
  return all.map(({ path, command }) => {
    const words = [
      ...subcommandNames(command),
      ...longFlags(command),
      ...(path.length > 0 ? globals : []),
      '--help',
    ];
    return `    "${path.join(' ')}") words="${[...new Set(words)].join(' ')}" ;;`;
  });
}

/**
 * What a positional argument offers, keyed `path:index`: its choices where it has them, a path where
 * it names a file (`files` completes one).
 */
function argumentCases(all: readonly Node[], files: string): string[] {
  return all.flatMap(({ path, command }) => [
    ...command.registeredArguments.flatMap((argument, index) =>
      argument.argChoices
        ? [`      "${path.join(' ')}:${index}") words="${argument.argChoices.join(' ')}" ;;`]
        : [],
    ),
    ...fileArgumentIndexes(command).map(
      (index) => `      "${path.join(' ')}:${index}") ${files} "$cur"; return ;;`,
    ),
  ]);
}

/** `help <TAB>`: the commands, then the subcommands of the one named so far. */
function helpCases(all: readonly Node[]): string[] {
  return all
    .filter(({ command }) => subcommandNames(command).length > 0)
    .map(
      ({ path, command }) =>
        `          "${path.join(' ')}") words="${subcommandNames(command).join(' ')}" ;;`,
    );
}

/** The bash functions of the script: `fn` completes the command, with `fn_files` for a path. */
export function bashScript(program: Command, fn: string): string {
  const files = `${fn}_files`;
  const all = nodes(program);
  const choices = flagChoices(all);
  const takesValue = valueFlags(all);
  // A value of the user's own (a query, a year): neither choices, nor fields, nor a file.
  const freeValues = takesValue.filter(
    (flag) => !choices.has(flag) && flag !== '--fields' && !fileFlags.includes(flag),
  );
  return fillTemplate(bashFunctions, {
    fn,
    files,
    valueFlags: takesValue.join('|'),
    steps: steps(all).join('|'),
    valueCases: valueCases(choices).join('\n'),
    fieldCases: fieldCases(all).join('\n'),
    fileFlags: fileFlags.join('|'),
    freeValues: freeValues.join('|'),
    argumentCases: argumentCases(all, files).join('\n'),
    helpCases: helpCases(all).join('\n'),
    wordCases: wordCases(all, longFlags(program)).join('\n'),
  });
}

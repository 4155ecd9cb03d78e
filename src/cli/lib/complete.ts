// What shell completion offers after the words typed so far, read off the command tree
// (command-tree.ts): subcommands, flags (the command's and the global ones), the values a
// flag or an argument takes (statuses, sort fields, profile names, shells), and file
// names where an argument or a flag's value is a file; zsh and fish show what each one
// is. The shell scripts (`notula completion`) ask `notula __complete WORDS…`, which
// bin/notula.js answers from dist/command-tree.json without loading the commands.
import { ArgCursor } from "./arg-cursor.js";
import type { CommandNode, OptionNode, Source, Values } from "./command-tree.js";

/** Printed as the first line when the shell should complete file names. */
export const FILES = ":files";

/** The first word after `__complete` when the shell shows what each candidate is (zsh, fish). */
export const DESCRIBE = "--describe";

const SOURCE_READERS: Record<Source, () => Promise<string[]>> = {
  profiles: async () => {
    const { allProfiles } = await import("./profiles.js");
    return Object.keys((await allProfiles()).profiles);
  },
};

async function valuesOf(values: Values | undefined, typed: string): Promise<string[] | null> {
  if (!values) return null;
  const list = "source" in values ? await SOURCE_READERS[values.source]().catch(() => []) : values;
  return list.filter((v) => v.startsWith(typed));
}

/** The first line of a command's or flag's description, for the shells that show it. */
const firstLine = (text: string) => text.split("\n")[0].replace(/\s+/g, " ").trim();

/**
 * The candidates for the last word (the one being typed) after the others: words, or
 * FILES. With `describe`, each word is followed by a tab and what it is.
 */
export async function completions(program: CommandNode, words: string[], describe = false): Promise<string[]> {
  const typed = words.length ? words[words.length - 1] : "";
  const at = new ArgCursor(program);
  let valueOf: OptionNode | undefined;
  for (const word of words.slice(0, -1)) {
    if (valueOf) valueOf = undefined;
    else if (word.startsWith("-")) valueOf = at.optionFor(word)?.value === "required" ? at.optionFor(word) : undefined;
    else at.enter(word);
  }
  const command = at.command;
  const said = (pairs: [string, string][]) => pairs.map(([w, d]) => (describe && d ? `${w}\t${firstLine(d)}` : w));
  if (valueOf) return (await valuesOf(valueOf.values, typed)) ?? (valueOf.files ? [FILES] : []);
  if (typed.startsWith("-"))
    return said(
      [...at.path]
        .reverse()
        .flatMap((c) => c.options)
        .filter((o) => !o.hidden)
        .flatMap((o): [string, string][] => (o.long ? [[o.long, o.description]] : []))
        .filter(([f]) => f.startsWith(typed) && !(f === "--version" && command !== program)),
    );
  const subs = command.commands
    .filter((c) => !c.hidden)
    .map((c): [string, string] => [c.name, c.description])
    .filter(([n]) => n.startsWith(typed));
  if (subs.length) return said(subs);
  const argument = command.arguments[at.positionals] ?? command.arguments.at(-1);
  const values = await valuesOf(argument?.values, typed);
  if (values) return values;
  return argument?.files ? [FILES] : [];
}

/** The scripts: each sends the words to `notula __complete` and shows its answer (file names on FILES). */
export const SCRIPTS: Record<"bash" | "zsh" | "fish", string> = {
  bash: `# notula completion for bash: source it, or save it in /etc/bash_completion.d/notula
_notula() {
  local cur=\${COMP_WORDS[COMP_CWORD]} IFS=$'\\n'
  local out=($(notula __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  if [ "\${out[0]}" = "${FILES}" ]; then
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
  else
    COMPREPLY=("\${out[@]}")
  fi
}
complete -F _notula notula
`,
  zsh: `#compdef notula
# notula completion for zsh: save it as _notula in a directory on $fpath, or source it
_notula() {
  local -a out described
  out=("\${(@f)$(notula __complete ${DESCRIBE} "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  if [[ "\${out[1]}" == "${FILES}" ]]; then
    _files
  elif (( \${#out} )) && [[ -n "\${out[1]}" ]]; then
    # "word<TAB>what it is" becomes _describe's "word:what it is" (a colon in the word escaped).
    local line
    for line in "\${out[@]}"; do
      if [[ "$line" == *$'\\t'* ]]; then described+=("\${\${line%%$'\\t'*}//:/\\:}:\${line#*$'\\t'}")
      else described+=("\${line//:/\\:}"); fi
    done
    _describe -t notula 'notula' described
  fi
}
if [[ "$funcstack[1]" == "_notula" ]]; then _notula "$@"; else compdef _notula notula; fi
`,
  fish: `# notula completion for fish: save it as ~/.config/fish/completions/notula.fish
function __notula_complete
  set -l words (commandline -opc) (commandline -ct)
  set -l out (notula __complete ${DESCRIBE} $words[2..-1] 2>/dev/null)
  if test "$out[1]" = "${FILES}"
    __fish_complete_path (commandline -ct)
  else
    printf '%s\\n' $out
  end
end
complete -c notula -f -a '(__notula_complete)'
`,
};

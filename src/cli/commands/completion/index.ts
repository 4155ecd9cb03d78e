// notula completion bash|zsh|fish: shell completion of commands and subcommands.
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";

function tree(program: Command): Record<string, string[]> {
  const out: Record<string, string[]> = { "": program.commands.map((c) => c.name()) };
  for (const c of program.commands) out[c.name()] = c.commands.map((s) => s.name());
  return out;
}

export function registerCompletion(program: Command) {
  program
    .command("completion")
    .description("Print a shell completion script")
    .argument("<shell>", "bash | zsh | fish")
    .addHelpText(
      "after",
      "\nExamples:\n  notula completion bash > /etc/bash_completion.d/notula\n  notula completion fish > ~/.config/fish/completions/notula.fish",
    )
    .action((shell: string) => {
      const t = tree(program);
      const top = t[""].join(" ");
      const subs = Object.entries(t).filter(([k, v]) => k && v.length);
      if (shell === "bash" || shell === "zsh") {
        const cases = subs
          .map(([k, v]) => `    ${k}) COMPREPLY=($(compgen -W "${v.join(" ")}" -- "$cur")) ;;`)
          .join("\n");
        const script = `_notula() {
  local cur=\${COMP_WORDS[COMP_CWORD]}
  if [ "$COMP_CWORD" -eq 1 ]; then COMPREPLY=($(compgen -W "${top}" -- "$cur")); return; fi
  if [ "$COMP_CWORD" -eq 2 ]; then
    case "\${COMP_WORDS[1]}" in
${cases}
    esac
  fi
}
complete -F _notula notula
`;
        process.stdout.write(shell === "zsh" ? `autoload -U +X bashcompinit && bashcompinit\n${script}` : script);
        return;
      }
      if (shell === "fish") {
        const lines = [`complete -c notula -f -n __fish_use_subcommand -a "${top}"`];
        for (const [k, v] of subs)
          lines.push(`complete -c notula -f -n "__fish_seen_subcommand_from ${k}" -a "${v.join(" ")}"`);
        process.stdout.write(lines.join("\n") + "\n");
        return;
      }
      throw new CliError("The shell must be bash, zsh or fish.", EXIT.usage);
    });
}

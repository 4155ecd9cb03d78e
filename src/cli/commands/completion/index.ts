// notula completion bash|zsh|fish: a shell completion script. The script asks
// `notula __complete WORDS…` what comes next (see lib/complete.ts and bin/notula.js).
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { examples } from "../../lib/help.js";
import { SCRIPTS } from "../../lib/complete.js";
import { offer } from "../../lib/command-tree.js";

export function registerCompletion(program: Command) {
  examples(
    offer(
      program
        .command("completion")
        .description("Print a shell completion script: commands, subcommands, flags, their values and file names")
        .argument("<shell>", "bash | zsh | fish"),
      "shell",
      Object.keys(SCRIPTS),
    ),
    "notula completion bash > /etc/bash_completion.d/notula",
    'notula completion zsh > "${fpath[1]}/_notula"',
    "notula completion fish > ~/.config/fish/completions/notula.fish",
  ).action((shell: string) => {
    if (!(shell in SCRIPTS)) throw new CliError("The shell must be bash, zsh or fish.", EXIT.usage);
    process.stdout.write(SCRIPTS[shell as keyof typeof SCRIPTS]);
  });
}

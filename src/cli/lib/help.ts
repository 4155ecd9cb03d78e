// What every command's help ends with: examples to copy. A test walks the command tree
// and fails for a command without one, so the reference never promises what help lacks.
import type { Command } from "commander";

/** Adds "Example:" (or "Examples:") lines to a command's help. */
export function examples(cmd: Command, ...lines: string[]): Command {
  return cmd.addHelpText(
    "after",
    `\n${lines.length > 1 ? "Examples" : "Example"}:\n${lines.map((l) => `  ${l}`).join("\n")}`,
  );
}

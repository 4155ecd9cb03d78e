// docs/cli.md, from the command definitions: every command with its arguments, its
// options and its help text, as `notula <command> --help` prints them.
import type { Command } from "commander";
import { createProgram } from "../../src/cli/program.js";
import { GENERATED } from "./markdown.js";

function fullName(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

function section(cmd: Command, depth: number): string[] {
  const out: string[] = [];
  const visible = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
  if (cmd.parent) {
    // Help as the terminal shows it, at a fixed width so the file does not depend on the terminal it was made at.
    const help = cmd
      .configureOutput({ getOutHelpWidth: () => 100, getErrHelpWidth: () => 100 })
      .helpInformation()
      .trimEnd();
    out.push(`${"#".repeat(Math.min(depth + 1, 4))} \`${fullName(cmd)}\``, "", "```text", help, "```", "");
  }
  for (const sub of visible) out.push(...section(sub, depth + 1));
  return out;
}

export async function renderCli(): Promise<string> {
  const program = await createProgram("all");
  program.configureOutput({ getOutHelpWidth: () => 100, getErrHelpWidth: () => 100 });
  const top = program.helpInformation().trimEnd();
  const index = program.commands.map((c) => `- [\`notula ${c.name()}\`](#${anchor(c)}): ${c.description()}`);
  return `${GENERATED("the command definitions (src/cli/commands)")}
# The notula command

\`\`\`text
${top}
\`\`\`

${index.join("\n")}

${section(program, 1).join("\n")}`;
}

const anchor = (c: Command) => `notula-${c.name()}`;

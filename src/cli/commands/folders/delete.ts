// notula folders delete <id>
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import type { Deps } from "../../lib/command.js";
import { confirm } from "../../lib/context.js";
import { info } from "../../lib/output.js";

export const define = (folders: Command) =>
  examples(
    folders
      .command("delete")
      .description("Delete a folder (its notes stay, unfiled)")
      .argument("<id>", "folder id")
      .option("-y, --yes", "do not ask"),
    "notula folders delete fld_…",
    "notula folders delete fld_… --yes",
  );

export interface Input {
  id: string;
  yes?: boolean;
}

export async function run(f: Input, { api }: Deps) {
  await confirm(`Delete folder ${f.id}? Its notes stay, unfiled.`, f.yes);
  return api.call("deleteFolder", { params: { id: f.id } });
}

export const render = (_r: unknown, f: Input) => info(`Deleted ${f.id}.`);

// notula templates delete <id>
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import type { Deps } from "../../lib/command.js";
import { confirm } from "../../lib/context.js";
import { info } from "../../lib/output.js";

export const define = (templates: Command) =>
  examples(
    templates
      .command("delete")
      .description("Delete one of the workspace's templates")
      .argument("<id>", "template id")
      .option("-y, --yes", "do not ask"),
    "notula templates delete tpl_… --yes",
  );

export interface Input {
  id: string;
  yes?: boolean;
}

export async function run(f: Input, { api }: Deps) {
  const { template } = await api.call("getTemplate", { params: { id: f.id } });
  await confirm(`Delete the template "${template.name}"? Folders that use it go back to the workspace default.`, f.yes);
  return api.call("deleteTemplate", { params: { id: f.id } });
}

export const render = (_r: unknown, f: Input) => info(`Deleted ${f.id}.`);

// notula invites delete <id>
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import type { Deps } from "../../lib/command.js";
import type { ApiResponse } from "../../lib/api-types.js";
import { confirm } from "../../lib/context.js";
import { info } from "../../lib/output.js";

export const define = (invites: Command) =>
  examples(
    invites
      .command("delete")
      .description("Delete an invite")
      .argument("<id>", "invite id")
      .option("--legacy", "use the older endpoint")
      .option("-y, --yes", "do not ask"),
    "notula invites delete inv_… --yes",
  );

export interface Input {
  id: string;
  legacy?: boolean;
  yes?: boolean;
}

export async function run(f: Input, { api }: Deps) {
  await confirm(`Delete invite ${f.id}?`, f.yes);
  return api.call(f.legacy ? "deleteWorkspaceInvite" : "deleteInvite", { params: { id: f.id } });
}

export const render = (r: ApiResponse<"deleteInvite">) => info(r.message);

// notula admin workspaces set-plan
import type { Command } from "commander";
import { examples } from "../../../lib/help.js";
import { dataDirOption, plan, say, type AdminDeps, type DataDirFlags } from "../deps.js";
import { PLANS } from "../../../../core/principal.js";

export const define = (workspaces: Command) =>
  examples(
    dataDirOption(
      workspaces
        .command("set-plan")
        .description("Change a workspace's plan")
        .requiredOption("--workspace <id>", "workspace")
        .requiredOption("--plan <plan>", PLANS.join(" | ")),
    ),
    "notula admin workspaces set-plan --workspace ws_… --plan business",
  );

export interface Input extends DataDirFlags {
  workspace: string;
  plan: string;
}

export const run = (f: Input, deps: AdminDeps) =>
  deps.withRuntime(f.dataDir, async (rt) => {
    await rt.services.workspaces.setPlan(f.workspace, plan(f.plan));
    return { workspace: { id: f.workspace, plan: f.plan } };
  });

export const render = (_r: unknown, f: Input, deps: AdminDeps) =>
  say(deps, `Workspace ${f.workspace} is now on ${f.plan}.`);

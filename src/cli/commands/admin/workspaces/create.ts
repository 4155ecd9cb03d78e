// notula admin workspaces create
import type { Command } from "commander";
import { dataDirOption, plan, say, type AdminDeps, type DataDirFlags } from "../deps.js";
import { PLANS } from "../../../../core/principal.js";

export const define = (workspaces: Command) =>
  dataDirOption(
    workspaces
      .command("create")
      .description("Create an isolated workspace with its own admin and all-scope key")
      .requiredOption("--name <name>", "workspace name")
      .option("--plan <plan>", PLANS.join(" | "), "enterprise")
      .option("--admin-email <email>", "the admin user's email"),
  ).addHelpText("after", "\nExample:\n  notula admin workspaces create --name Acme --plan pro --json");

export interface Input extends DataDirFlags {
  name: string;
  plan: string;
  adminEmail?: string;
}

export const run = (f: Input, deps: AdminDeps) =>
  deps.withRuntime(f.dataDir, async (rt) => {
    const created = await rt.services.workspaces.create({ name: f.name, plan: plan(f.plan), adminEmail: f.adminEmail });
    return { workspace: created.workspace, user: created.user, key: created.key };
  });

export const render = (r: Awaited<ReturnType<typeof run>>, _f: Input, deps: AdminDeps) =>
  say(deps, `Workspace ${r.workspace.id} created; admin ${r.user.email}; key (shown once): ${r.key}`);

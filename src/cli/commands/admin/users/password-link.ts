// notula admin users password-link
import type { Command } from "commander";
import { dataDirOption, say, type AdminDeps, type DataDirFlags } from "../deps.js";

export const define = (users: Command) =>
  dataDirOption(
    users
      .command("password-link")
      .description("Print a one-time link (24 hours) where the user chooses a new password")
      .requiredOption("--email <email>", "the user's email"),
  ).addHelpText("after", "\nExample:\n  notula admin users password-link --email admin@notula.local");

export interface Input extends DataDirFlags {
  email: string;
}

export const run = (f: Input, deps: AdminDeps) =>
  deps.withRuntime(f.dataDir, async (rt, publicUrl) => {
    const userId = await rt.services.workspaces.userIdByEmail(f.email);
    return { userId, url: `${publicUrl}/account/password/${await rt.services.accounts.issueLink(userId, "reset")}` };
  });

export const render = (r: { url: string }, _f: Input, deps: AdminDeps) => say(deps, r.url);

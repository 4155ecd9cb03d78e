// notula admin users set-password
import type { Command } from "commander";
import { dataDirOption, readPassword, say, type AdminDeps, type DataDirFlags } from "../deps.js";

export const define = (users: Command) =>
  dataDirOption(
    users
      .command("set-password")
      .description("Set a user's password from standard input; their browser sessions end")
      .requiredOption("--email <email>", "the user's email"),
  ).addHelpText(
    "after",
    "\nExample:\n  printf '%s' \"$PASSWORD\" | notula admin users set-password --email ana@example.com",
  );

export interface Input extends DataDirFlags {
  email: string;
}

export async function run(f: Input, deps: AdminDeps) {
  const password = await readPassword(deps.io);
  return deps.withRuntime(f.dataDir, async (rt) => {
    const userId = await rt.services.workspaces.userIdByEmail(f.email);
    await rt.services.accounts.setPassword(userId, password);
    return { userId, passwordSet: true };
  });
}

export const render = (_r: unknown, f: Input, deps: AdminDeps) => say(deps, `Password set for ${f.email}.`);

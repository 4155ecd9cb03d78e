// notula admin users create
import type { Command } from "commander";
import { CliError, EXIT } from "../../../exit.js";
import { dataDirOption, readPassword, say, type AdminDeps, type DataDirFlags } from "../deps.js";

export const define = (users: Command) =>
  dataDirOption(
    users
      .command("create")
      .description("Create a user and add them to a workspace")
      .requiredOption("--workspace <id>", "workspace")
      .requiredOption("--email <email>", "email (their sign-in name)")
      .requiredOption("--name <name>", "display name")
      .option("--password-stdin", "read the password from standard input")
      .option("--role <role>", "admin | member", "member"),
  ).addHelpText(
    "after",
    "\nExample:\n  printf '%s' \"$PASSWORD\" | notula admin users create --workspace ws_… --email ana@example.com --name Ana --password-stdin",
  );

export interface Input extends DataDirFlags {
  workspace: string;
  email: string;
  name: string;
  passwordStdin?: boolean;
  role: string;
}

export function validate(f: Input) {
  if (!["admin", "member"].includes(f.role)) throw new CliError("--role must be admin or member.", EXIT.usage);
}

export async function run(f: Input, deps: AdminDeps) {
  validate(f);
  const password = f.passwordStdin ? await readPassword(deps.io) : undefined;
  if (password !== undefined && password.length < 8)
    throw new CliError("The password must have at least 8 characters.", EXIT.usage);
  return deps.withRuntime(f.dataDir, (rt) =>
    rt.services.workspaces.addUser({
      workspaceId: f.workspace,
      email: f.email,
      name: f.name,
      password,
      role: f.role as "admin" | "member",
    }),
  );
}

export const render = (r: Awaited<ReturnType<typeof run>>, _f: Input, deps: AdminDeps) =>
  say(deps, `User ${r.user.id} (${r.user.email}) added as ${r.member.role}.`);

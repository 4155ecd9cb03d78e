// notula admin keys create
import type { Command } from "commander";
import { CliError, EXIT } from "../../../exit.js";
import { dataDirOption, say, workspaceOf, type AdminDeps, type DataDirFlags } from "../deps.js";

export const define = (keys: Command) =>
  dataDirOption(
    keys
      .command("create")
      .description("Create an API key (printed once)")
      .requiredOption("--name <name>", "a name to tell the key apart")
      .option("--scopes <list>", "comma-separated: notes,folders,users,templates", "notes,folders,users,templates")
      .option("--workspace <id>", "workspace (default: the first one)")
      .option("--user <id>", "user the key acts as (default: the workspace's first admin)"),
  ).addHelpText("after", "\nExample:\n  notula admin keys create --name ci --scopes notes,folders --json");

export interface Input extends DataDirFlags {
  name: string;
  scopes: string;
  workspace?: string;
  user?: string;
}

export const run = (f: Input, deps: AdminDeps) =>
  deps.withRuntime(f.dataDir, async (rt) => {
    const { parseScopes } = await import("../../../../services/api-keys.js");
    const { AppError } = await import("../../../../core/errors.js");
    const workspaceId = await workspaceOf(rt, f.workspace);
    if (!workspaceId)
      throw new CliError(
        "The data dir has no workspace yet; run `notula serve` once or `notula admin workspaces create`.",
        EXIT.notFound,
      );
    const userId = f.user ?? (await rt.services.workspaces.defaultUser(workspaceId));
    let scopes;
    try {
      scopes = parseScopes(f.scopes);
    } catch (err) {
      // The flag's value is checked before anything is written: a usage error.
      throw err instanceof AppError ? new CliError(`--scopes: ${err.message}`, EXIT.usage) : err;
    }
    const created = await rt.services.apiKeys.create({ workspaceId, userId, name: f.name, scopes });
    return { key: created.key, id: created.id, scopes: created.scopes, workspaceId, userId };
  });

export const render = (r: { key: string }, _f: Input, deps: AdminDeps) => say(deps, r.key);

// notula admin keys revoke <id>
import type { Command } from "commander";
import { examples } from "../../../lib/help.js";
import { CliError, EXIT } from "../../../exit.js";
import { dataDirOption, say, type AdminDeps, type DataDirFlags } from "../deps.js";

export const define = (keys: Command) =>
  examples(
    dataDirOption(keys.command("revoke").description("Revoke an API key").argument("<id>", "key id (key_…)")),
    "notula admin keys revoke key_…",
  );

export interface Input extends DataDirFlags {
  id: string;
}

export const run = (f: Input, deps: AdminDeps) =>
  deps.withRuntime(f.dataDir, async (rt) => {
    if (!(await rt.services.apiKeys.revoke(f.id))) throw new CliError(`No live key ${f.id}.`, EXIT.notFound);
    return { id: f.id, revoked: true };
  });

export const render = (r: { id: string }, _f: Input, deps: AdminDeps) => say(deps, `Revoked ${r.id}.`);

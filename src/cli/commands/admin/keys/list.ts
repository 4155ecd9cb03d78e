// notula admin keys list
import type { Command } from "commander";
import { examples } from "../../../lib/help.js";
import { dataDirOption, say, workspaceOf, type AdminDeps, type DataDirFlags } from "../deps.js";
import { formatTable } from "../../../lib/output.js";

export const define = (keys: Command) =>
  examples(
    dataDirOption(
      keys
        .command("list")
        .description("List a workspace's API keys (never the keys themselves)")
        .option("--workspace <id>", "workspace"),
    ),
    "notula admin keys list",
    `notula admin keys list --workspace ws_… --json --jq '.items[] | select(.revoked | not) | .id'`,
  );

export interface Input extends DataDirFlags {
  workspace?: string;
}

export const run = (f: Input, deps: AdminDeps) =>
  deps.withRuntime(f.dataDir, async (rt) => {
    const workspaceId = await workspaceOf(rt, f.workspace);
    return { items: workspaceId ? await rt.services.apiKeys.list(workspaceId) : [] };
  });

export const render = ({ items: keys }: Awaited<ReturnType<typeof run>>, _f: Input, deps: AdminDeps) =>
  keys.length
    ? deps.io.write(
        formatTable(
          ["ID", "PREFIX", "NAME", "SCOPES", "STATE"],
          keys.map((k) => [k.id, `${k.prefix}…`, k.name, k.scopes.join(","), k.revoked ? "revoked" : "live"]),
          Boolean(deps.io.terminal),
        ),
      )
    : say(deps, "No keys.");

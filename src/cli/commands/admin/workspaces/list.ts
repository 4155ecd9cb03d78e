// notula admin workspaces list
import type { Command } from "commander";
import { examples } from "../../../lib/help.js";
import { dataDirOption, say, type AdminDeps, type DataDirFlags } from "../deps.js";
import { formatTable } from "../../../lib/output.js";

export const define = (workspaces: Command) =>
  examples(
    dataDirOption(workspaces.command("list").description("List workspaces")),
    "notula admin workspaces list --data-dir /var/lib/notula",
  );

export const run = (f: DataDirFlags, deps: AdminDeps) =>
  deps.withRuntime(f.dataDir, async (rt) => ({ items: await rt.services.workspaces.list() }));

export const render = ({ items }: Awaited<ReturnType<typeof run>>, _f: DataDirFlags, deps: AdminDeps) =>
  items.length
    ? deps.io.write(
        formatTable(
          ["ID", "PLAN", "NAME"],
          items.map((w) => [w.id, w.plan, w.name]),
          Boolean(deps.io.terminal),
        ),
      )
    : say(deps, "No workspaces.");

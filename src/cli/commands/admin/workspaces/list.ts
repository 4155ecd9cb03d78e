// notula admin workspaces list
import type { Command } from "commander";
import { dataDirOption, say, type AdminDeps, type DataDirFlags } from "../deps.js";

export const define = (workspaces: Command) => dataDirOption(workspaces.command("list").description("List workspaces"));

export const run = (f: DataDirFlags, deps: AdminDeps) =>
  deps.withRuntime(f.dataDir, async (rt) => ({ workspaces: await rt.services.workspaces.list() }));

export const render = ({ workspaces }: Awaited<ReturnType<typeof run>>, _f: DataDirFlags, deps: AdminDeps) =>
  say(deps, workspaces.map((w) => `${w.id}  ${w.plan.padEnd(10)}  ${w.name}`).join("\n") || "No workspaces.");

// notula members list
import type { Command } from "commander";
import type { Deps } from "../../lib/command.js";
import type { ApiResponse } from "../../lib/api-types.js";
import { names, pageOptions, printTable, type PageFlags } from "../../lib/output.js";

export const define = (members: Command) =>
  pageOptions(members.command("list").description("List members").option("--search <text>", "part of a name or email"));

export interface Input extends PageFlags {
  search?: string;
}

export const run = (f: Input, { api }: Deps) =>
  api.call("listMembers", { query: { search: f.search, limit: f.limit, offset: f.offset } });

export const render = (r: ApiResponse<"listMembers">) =>
  printTable(
    ["ID", "NAME", "EMAIL", "ROLE", "GROUPS"],
    r.items.map((m) => [m.id, m.name, m.email, m.role, names(m.groups)]),
  );

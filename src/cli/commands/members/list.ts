// notula members list
import type { Command } from "commander";
import { checkFlags } from "../../lib/check-flags.js";
import { MemberListQuery } from "../../../shared/schemas/workspace.js";
import { examples } from "../../lib/help.js";
import type { Deps } from "../../lib/command.js";
import type { ApiResponse } from "../../lib/api-types.js";
import { names, pageOptions, printTable, type PageFlags } from "../../lib/output.js";

export const define = (members: Command) =>
  examples(
    pageOptions(
      members.command("list").description("List members").option("--search <text>", "part of a name or email"),
    ),
    "notula members list --search ana",
    "notula members list --limit 100 --json email",
  );

export interface Input extends PageFlags {
  search?: string;
}

export const validate = (f: Input) =>
  checkFlags(
    MemberListQuery,
    { limit: f.limit, offset: f.offset, search: f.search },
    { limit: "--limit", offset: "--offset", search: "--search" },
  );

export const run = (f: Input, { api }: Deps) =>
  api.call("listMembers", { query: { search: f.search, limit: f.limit, offset: f.offset } });

export const render = (r: ApiResponse<"listMembers">) =>
  printTable(
    ["ID", "NAME", "EMAIL", "ROLE", "GROUPS"],
    r.items.map((m) => [m.id, m.name, m.email, m.role, names(m.groups)]),
  );

// notula groups list
import type { Command } from "commander";
import type { Deps } from "../../lib/command.js";
import type { ApiResponse } from "../../lib/api-types.js";
import { printTable } from "../../lib/output.js";

export const define = (groups: Command) => groups.command("list").description("List user groups");

export const run = (_input: object, { api }: Deps) => api.call("listGroups");

export const render = (r: ApiResponse<"listGroups">) =>
  printTable(
    ["ID", "NAME", "MEMBERS"],
    r.userGroups.map((g) => [g.id, g.name, String(g.memberCount)]),
  );

// notula groups list
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import { listOf } from "../../lib/json-output.js";
import type { Deps } from "../../lib/command.js";
import { printTable } from "../../lib/output.js";

export const define = (groups: Command) =>
  examples(
    groups.command("list").description("List user groups"),
    "notula groups list",
    "notula groups list --json id,name",
  );

export const run = async (_input: object, { api }: Deps) => listOf("userGroups", await api.call("listGroups"));

export const render = (r: Awaited<ReturnType<typeof run>>) =>
  printTable(
    ["ID", "NAME", "MEMBERS"],
    r.items.map((g) => [g.id, g.name, String(g.memberCount)]),
  );

// notula tags list
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import { listOf } from "../../lib/json-output.js";
import type { Deps } from "../../lib/command.js";
import { printTable } from "../../lib/output.js";

export const define = (tags: Command) =>
  examples(tags.command("list").description("List workspace tags"), "notula tags list");

export const run = async (_input: object, { api }: Deps) => listOf("tags", await api.call("listTags"));

export const render = (r: Awaited<ReturnType<typeof run>>) =>
  printTable(
    ["ID", "NAME", "COLOR"],
    r.items.map((t) => [t.id, t.name, t.color]),
  );

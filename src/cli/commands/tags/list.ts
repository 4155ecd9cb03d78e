// notula tags list
import type { Command } from "commander";
import type { Deps } from "../../lib/command.js";
import type { ApiResponse } from "../../lib/api-types.js";
import { printTable } from "../../lib/output.js";

export const define = (tags: Command) => tags.command("list").description("List workspace tags");

export const run = (_input: object, { api }: Deps) => api.call("listTags");

export const render = (r: ApiResponse<"listTags">) =>
  printTable(
    ["ID", "NAME", "COLOR"],
    r.tags.map((t) => [t.id, t.name, t.color]),
  );

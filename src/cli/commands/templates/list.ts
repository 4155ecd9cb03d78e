// notula templates list
import type { Command } from "commander";
import type { ApiResponse } from "../../lib/api-types.js";
import type { Deps } from "../../lib/command.js";
import { printTable, truncate } from "../../lib/output.js";

export const define = (templates: Command) =>
  templates.command("list").description("List the built-in templates and the workspace's own");

export const run = (_input: object, { api }: Deps) => api.call("listTemplates");

export const render = ({ templates }: ApiResponse<"listTemplates">) =>
  printTable(
    ["ID", "NAME", "SECTIONS", "LANGUAGE", ""],
    templates.map((t) => [
      t.id,
      truncate(t.name, 32),
      truncate(t.sections.map((s) => s.title).join(", "), 60),
      t.language ?? "",
      [t.isDefault ? "default" : "", t.builtIn ? "built-in" : ""].filter(Boolean).join(", "),
    ]),
  );

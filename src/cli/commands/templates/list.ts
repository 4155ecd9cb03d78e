// notula templates list
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import { listOf } from "../../lib/json-output.js";
import type { Deps } from "../../lib/command.js";
import { printTable, truncate } from "../../lib/output.js";

export const define = (templates: Command) =>
  examples(
    templates.command("list").description("List the built-in templates and the workspace's own"),
    "notula templates list",
    "notula templates list --json id,name",
  );

export const run = async (_input: object, { api }: Deps) => listOf("templates", await api.call("listTemplates"));

export const render = ({ items: templates }: Awaited<ReturnType<typeof run>>) =>
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

// notula models list
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import { printTable } from "../../lib/output.js";
import { dataDirOf, dataDirOption, type DataDirFlags } from "./data-dir.js";

export const define = (models: Command) =>
  examples(
    dataDirOption(models.command("list").description("List the models and which are installed")),
    "notula models list",
    `notula models list --json --jq '.items[] | select(.installed) | .name'`,
  );

export async function run(f: DataDirFlags) {
  const { listModels } = await import("../../../ai/models.js");
  return { items: listModels(await dataDirOf(f)) };
}

export function render({ items }: Awaited<ReturnType<typeof run>>) {
  printTable(
    ["NAME", "SIZE", "LANGUAGES", "STATUS"],
    items.map((m) => [m.name, `${m.sizeMb} MB`, m.languages, m.installed ? "installed" : ""]),
  );
}

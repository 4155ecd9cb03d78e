// notula models list
import type { Command } from "commander";
import { dataDirOf, dataDirOption, type DataDirFlags } from "./data-dir.js";

export const define = (models: Command) =>
  dataDirOption(models.command("list").description("List the models and which are installed"));

export async function run(f: DataDirFlags) {
  const { listModels } = await import("../../../ai/models.js");
  return { models: listModels(await dataDirOf(f)) };
}

export function render({ models }: Awaited<ReturnType<typeof run>>) {
  const rows = models.map(
    (m) =>
      `${m.name.padEnd(16)} ${`${m.sizeMb} MB`.padStart(8)}  ${m.languages.padEnd(12)} ${m.installed ? "installed" : ""}`,
  );
  process.stdout.write(
    `${"NAME".padEnd(16)} ${"SIZE".padStart(8)}  ${"LANGUAGES".padEnd(12)} STATUS\n${rows.join("\n")}\n`,
  );
}

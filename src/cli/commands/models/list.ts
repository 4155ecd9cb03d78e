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
  const { LLM_MODELS, llmModelsDir } = await import("../../../ai/llm/local-models.js");
  const fs = await import("node:fs");
  const path = await import("node:path");
  const dataDir = await dataDirOf(f);
  const llms = LLM_MODELS.map((m) => {
    const file = path.join(llmModelsDir(dataDir), m.file);
    const installed = fs.existsSync(file);
    return {
      kind: "language model" as const,
      name: m.name,
      file: m.file,
      sizeMb: m.sizeMb,
      languages: "multilingual" as const,
      installed,
      path: installed ? file : null,
      bytes: installed ? fs.statSync(file).size : null,
    };
  });
  return { items: [...listModels(dataDir).map((m) => ({ kind: "speech" as const, ...m })), ...llms] };
}

export function render({ items }: Awaited<ReturnType<typeof run>>) {
  printTable(
    ["NAME", "KIND", "SIZE", "LANGUAGES", "STATUS"],
    items.map((m) => [m.name, m.kind, `${m.sizeMb} MB`, m.languages, m.installed ? "installed" : ""]),
  );
}

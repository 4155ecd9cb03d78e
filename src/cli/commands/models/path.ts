// notula models path <name>
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import { CliError, EXIT } from "../../exit.js";
import { dataDirOf, dataDirOption, type DataDirFlags } from "./data-dir.js";

export const define = (models: Command) =>
  examples(
    dataDirOption(
      models
        .command("path")
        .description("Print where a model is (or would be) stored")
        .argument("<name>", "model name"),
    ),
    "notula models path base.en",
  );

export interface Input extends DataDirFlags {
  name: string;
}

export async function run(f: Input): Promise<string> {
  const { modelFile, ModelError } = await import("../../../ai/models.js");
  try {
    return modelFile(await dataDirOf(f), f.name);
  } catch (err) {
    if (err instanceof ModelError) throw new CliError(err.message, EXIT.usage);
    throw err;
  }
}

/** A path, one line, whatever the output mode. */
export const ownsOutput = true;

export const render = (file: string) => process.stdout.write(`${file}\n`);

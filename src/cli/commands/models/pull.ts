// notula models pull <name>
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { dataDirOf, dataDirOption, type DataDirFlags } from "./data-dir.js";

export const define = (models: Command) =>
  dataDirOption(
    models
      .command("pull")
      .description("Download a model, with progress, and check its SHA-256")
      .argument("<name>", "model name, e.g. base.en")
      .option("--no-verify", "accept a download whose server publishes no checksum"),
  ).addHelpText(
    "after",
    "\nExample:\n  notula models pull base.en\n\nNOTULA_MODELS_URL points at a mirror of the model files.",
  );

export interface Input extends DataDirFlags {
  name: string;
  verify: boolean;
}

/** Downloads with a progress bar, then says on stderr whether the checksum was verified. */
export async function run(f: Input) {
  const { pullModel, ModelError } = await import("../../../ai/models.js");
  const { renderProgress } = await import("../../lib/progress.js");
  const progress = renderProgress(`Downloading ${f.name}`);
  try {
    const dataDir = await dataDirOf(f);
    const { loadConfig } = await import("../../../config/load.js");
    const r = await pullModel(dataDir, f.name, {
      // The server's setting (NOTULA_MODELS_URL or the data dir's config file): a mirror, where one is set.
      baseUrl: loadConfig({ dataDir }).transcription.modelsUrl,
      onProgress: progress.update,
      allowUnverified: f.verify === false,
    });
    progress.done();
    return r;
  } catch (err) {
    progress.done();
    if (err instanceof ModelError)
      throw new CliError(err.message, /Unknown model/.test(err.message) ? EXIT.usage : EXIT.error);
    throw err;
  }
}

export const ownsOutput = true;

export function render(r: Awaited<ReturnType<typeof run>>, _f: Input, deps: { globals: { json?: boolean } }) {
  process.stdout.write(deps.globals.json ? JSON.stringify(r, null, 2) + "\n" : `${r.path}\n`);
  process.stderr.write(
    r.verified ? `SHA-256 verified (${r.sha256}).\n` : "Not verified: the server published no checksum.\n",
  );
}

// `notula models list|pull|path`: the local whisper engine's models.
import type { Command } from "commander";
import { CliError, EXIT } from "./exit.js";

async function dataDirOf(flags: { dataDir?: string }) {
  const { defaultDataDir } = await import("../config/load.js");
  return flags.dataDir ?? defaultDataDir(process.env);
}

export function registerModels(program: Command) {
  const models = program.command("models").description("Models of the local whisper speech-to-text engine");
  const common = (c: Command) => c.option("--data-dir <dir>", "data dir (NOTULA_DATA_DIR)");

  common(models.command("list").description("List the models and which are installed")).action(
    async (_f, cmd: Command) => {
      const flags = cmd.optsWithGlobals();
      const { listModels } = await import("../ai/models.js");
      const list = listModels(await dataDirOf(flags));
      if (flags.json) return void process.stdout.write(JSON.stringify({ models: list }, null, 2) + "\n");
      const rows = list.map(
        (m) =>
          `${m.name.padEnd(16)} ${`${m.sizeMb} MB`.padStart(8)}  ${m.languages.padEnd(12)} ${m.installed ? "installed" : ""}`,
      );
      process.stdout.write(
        `${"NAME".padEnd(16)} ${"SIZE".padStart(8)}  ${"LANGUAGES".padEnd(12)} STATUS\n${rows.join("\n")}\n`,
      );
    },
  );

  common(
    models
      .command("pull")
      .description("Download a model, with progress, and check its SHA-256")
      .argument("<name>", "model name, e.g. base.en")
      .option("--no-verify", "accept a download whose server publishes no checksum"),
  )
    .addHelpText(
      "after",
      "\nExample:\n  notula models pull base.en\n\nNOTULA_MODELS_URL points at a mirror of the model files.",
    )
    .action(async (name, _f, cmd: Command) => {
      const flags = cmd.optsWithGlobals();
      const { pullModel, ModelError } = await import("../ai/models.js");
      const { renderProgress } = await import("./progress.js");
      const progress = renderProgress(`Downloading ${name}`);
      try {
        const r = await pullModel(await dataDirOf(flags), name, {
          baseUrl: process.env.NOTULA_MODELS_URL,
          onProgress: progress.update,
          allowUnverified: flags.verify === false,
        });
        progress.done();
        if (flags.json) process.stdout.write(JSON.stringify(r, null, 2) + "\n");
        else process.stdout.write(`${r.path}\n`);
        process.stderr.write(
          r.verified ? `SHA-256 verified (${r.sha256}).\n` : "Not verified: the server published no checksum.\n",
        );
      } catch (err) {
        progress.done();
        if (err instanceof ModelError)
          throw new CliError(err.message, /Unknown model/.test(err.message) ? EXIT.usage : EXIT.error);
        throw err;
      }
    });

  common(
    models.command("path").description("Print where a model is (or would be) stored").argument("<name>", "model name"),
  ).action(async (name, _f, cmd: Command) => {
    const flags = cmd.optsWithGlobals();
    const { modelFile, ModelError } = await import("../ai/models.js");
    try {
      process.stdout.write(`${modelFile(await dataDirOf(flags), name)}\n`);
    } catch (err) {
      if (err instanceof ModelError) throw new CliError(err.message, EXIT.usage);
      throw err;
    }
  });
}

// notula models pull <name>
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { dataDirOf, dataDirOption, type DataDirFlags } from "./data-dir.js";

/** The name that pulls the two speaker models rather than a whisper model. */
const SPEAKERS = "speakers";

export const define = (models: Command) =>
  dataDirOption(
    models
      .command("pull")
      .description("Download a model, with progress, and check its SHA-256")
      .argument("<name>", `a whisper model (e.g. base.en), or "${SPEAKERS}" for the speaker models`)
      .option("--no-verify", "accept a download whose server publishes no checksum"),
  ).addHelpText(
    "after",
    "\nExamples:\n  notula models pull base.en\n  notula models pull speakers\n\nNOTULA_MODELS_URL points at a mirror of the model files. The speaker models split a side of a\nrecording into its voices once an admin switches them on (Settings → Speech-to-text).",
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
    if (f.name === SPEAKERS) {
      // Both speaker models, tried once so that a file sherpa-onnx cannot load is refused now.
      const { setUpSpeakerModels } = await import("../../../services/speaker-setup.js");
      const paths = await setUpSpeakerModels(dataDir, {
        mirror: loadConfig({ dataDir }).transcription.modelsUrl,
        onProgress: progress.update,
      });
      progress.done();
      return { speakers: paths };
    }
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
    const { DiarizationError } = await import("../../../ai/diarization/diarize.js");
    if (err instanceof DiarizationError)
      throw new CliError(`The speaker models were refused: ${err.message}.`, EXIT.error);
    if (err instanceof ModelError)
      throw new CliError(err.message, /Unknown model/.test(err.message) ? EXIT.usage : EXIT.error);
    throw err;
  }
}

export const ownsOutput = true;

export function render(r: Awaited<ReturnType<typeof run>>, _f: Input, deps: { globals: { json?: boolean } }) {
  if (deps.globals.json) return void process.stdout.write(JSON.stringify(r, null, 2) + "\n");
  if ("speakers" in r) {
    process.stdout.write(`${r.speakers.segmentation}\n${r.speakers.embedding}\n`);
    process.stderr.write(
      "Downloaded with their SHA-256 checksums verified, and they load. An admin switches them on in Settings → Speech-to-text.\n",
    );
    return;
  }
  process.stdout.write(`${r.path}\n`);
  process.stderr.write(
    r.verified ? `SHA-256 verified (${r.sha256}).\n` : "Not verified: the server published no checksum.\n",
  );
}

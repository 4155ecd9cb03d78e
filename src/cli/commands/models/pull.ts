// notula models pull <name>
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { dataDirOf, dataDirOption, type DataDirFlags } from "./data-dir.js";

/** The name that pulls the two speaker models rather than a whisper model. */
const SPEAKERS = "speakers";
/** The name that sets up the default local language model (or give one of the catalog's names). */
const LLM = "llm";

export const define = (models: Command) =>
  dataDirOption(
    models
      .command("pull")
      .description("Download a model, with progress, and check its SHA-256")
      .argument(
        "<name>",
        `a whisper model (e.g. base.en), "${SPEAKERS}" for the speaker models, or "${LLM}" (or a name from \`notula models list\`) for a local language model`,
      )
      .option("--no-verify", "accept a download whose server publishes no checksum"),
  ).addHelpText(
    "after",
    "\nExamples:\n  notula models pull base.en\n  notula models pull speakers\n  notula models pull llm\n\nNOTULA_MODELS_URL points at a mirror of the model files. The speaker models split a side of a\nrecording into its voices once an admin switches them on (Settings → Speech-to-text). A local\nlanguage model comes with its engine (node-llama-cpp, installed with npm) and is tried once;\nan admin then chooses it in Settings → AI.",
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
    const { LLM_MODELS, DEFAULT_LLM_MODEL } = await import("../../../ai/llm/local-models.js");
    if (f.name === LLM || LLM_MODELS.some((m) => m.name === f.name)) {
      const { setUpLocalLlm } = await import("../../../services/llm-setup.js");
      const name = f.name === LLM ? DEFAULT_LLM_MODEL : f.name;
      const file = await setUpLocalLlm(dataDir, name, {
        mirror: loadConfig({ dataDir }).transcription.modelsUrl,
        onStep: (s) => {
          if (s.phase === "downloading") progress.update(s.received, s.total);
          else process.stderr.write(s.phase === "installing" ? "Installing its engine (node-llama-cpp)…\n" : "");
        },
      });
      progress.done();
      return { llm: file };
    }
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
    const { EngineConfigError } = await import("../../../ai/transcription/engine.js");
    if (err instanceof EngineConfigError) throw new CliError(`${err.message}.`.replace(/\.\.$/, "."), EXIT.error);
    if (err instanceof ModelError)
      throw new CliError(err.message, /Unknown model/.test(err.message) ? EXIT.usage : EXIT.error);
    throw err;
  }
}

export const ownsOutput = true;

export function render(r: Awaited<ReturnType<typeof run>>, _f: Input, deps: { globals: { json?: boolean } }) {
  if (deps.globals.json) return void process.stdout.write(JSON.stringify(r, null, 2) + "\n");
  if ("llm" in r) {
    process.stdout.write(`${r.llm}\n`);
    process.stderr.write(
      "Downloaded with its SHA-256 checksum verified, and it answers. An admin chooses it in Settings → AI.\n",
    );
    return;
  }
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

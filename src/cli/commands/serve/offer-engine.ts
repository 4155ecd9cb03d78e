// `notula serve` at a terminal, when no speech-to-text engine is usable: it offers to set
// up the local one (a whisper model, with a progress bar and a verified checksum) before the server starts, so that the first recording is
// transcribed. Never asked where nobody can answer (a service manager, a pipe, CI).
import type { Config } from "../../../config/schema.js";
import { environment } from "../../../config/environment.js";

export async function offerLocalEngine(
  config: Pick<Config, "transcription" | "summarization" | "embeddings" | "dataDir" | "role">,
): Promise<void> {
  if (!process.stdin.isTTY || !process.stderr.isTTY || environment().ci || config.role === "api") return;
  const t = config.transcription;
  if (t.engine !== "auto" && t.engine !== "whisper") return;
  const { describeEngines } = await import("../../../ai/select.js");
  if (describeEngines(config).transcription.using !== "none") return;
  const { DEFAULT_MODEL, findModel } = await import("../../../ai/models.js");
  const { localEngineMissing, setUpLocalEngine } = await import("../../../ai/local-engine-setup.js");
  const missing = localEngineMissing(config.dataDir);
  if (!missing) return;
  const model = findModel(DEFAULT_MODEL);
  const p = await import("@clack/prompts");
  const what = `download the ${model.name} model, about ${model.sizeMb} MB`;
  p.log.warn("No speech-to-text engine is usable: recordings would be kept but not transcribed.");
  const yes = await p.confirm({ message: `Set up the local engine now? (${what})`, initialValue: true });
  if (p.isCancel(yes) || !yes) {
    p.log.info(
      "Recordings are kept and transcribed once an engine exists: an admin can set one up in the web app (Settings → Speech-to-text), or start with --stt-url.",
    );
    return;
  }
  const { renderProgress } = await import("../../lib/progress.js");
  const progress = renderProgress(`Downloading ${model.name}`);
  try {
    const { modelPath } = await setUpLocalEngine({
      dataDir: config.dataDir,
      model: model.name,
      modelsUrl: t.modelsUrl,
      onStep: (step) => {
        if (step.phase === "downloading") progress.update(step.received, step.total);
      },
    });
    progress.done();
    p.log.success(`Speech-to-text is set up: recordings are transcribed with whisper (${modelPath}).`);
  } catch (err) {
    progress.done();
    // The server starts all the same; recordings wait for an engine.
    p.log.error(`Setting up the local engine failed: ${(err as Error).message}`);
  }
}

// `notula serve` at a terminal, when no speech-to-text engine is usable, or only the
// pocketsphinx fallback: it offers to set up the local whisper engine (a model, with a
// progress bar and a verified checksum) before the server starts, so that the first
// recording is transcribed, and transcribed well. Never asked where nobody can answer (a
// service manager, a pipe, CI); an offer of whisper over pocketsphinx declined once is
// not made again on that data dir.
import fs from "node:fs";
import path from "node:path";
import type { Config } from "../../../config/schema.js";
import { environment } from "../../../config/environment.js";

const DECLINED = "whisper-offer-declined";

export async function offerLocalEngine(
  config: Pick<Config, "transcription" | "summarization" | "embeddings" | "dataDir" | "role">,
): Promise<void> {
  if (!process.stdin.isTTY || !process.stderr.isTTY || environment().ci || config.role === "api") return;
  const t = config.transcription;
  if (t.engine !== "auto" && t.engine !== "whisper") return;
  const { describeEngines } = await import("../../../ai/select.js");
  const using = describeEngines(config).transcription.using;
  const fallback = using.startsWith("sphinx:");
  if (using !== "none" && !fallback) return;
  if (fallback && fs.existsSync(path.join(config.dataDir, DECLINED))) return;
  const { DEFAULT_MODEL, findModel } = await import("../../../ai/models.js");
  const { localEngineMissing, setUpLocalEngine } = await import("../../../ai/local-engine-setup.js");
  const { engineCaveat } = await import("../../../ai/transcription/engine-notes.js");
  if (!localEngineMissing(config.dataDir)) return;
  const model = findModel(DEFAULT_MODEL);
  const p = await import("@clack/prompts");
  const what = `download the ${model.name} model, about ${model.sizeMb} MB`;
  p.log.warn(
    fallback
      ? `Recordings would be transcribed by pocketsphinx. ${engineCaveat(using)}`
      : "No speech-to-text engine is usable: recordings would be kept but not transcribed.",
  );
  const yes = await p.confirm({
    message: `Set up the local ${fallback ? "whisper " : ""}engine now? (${what})`,
    initialValue: true,
  });
  if (p.isCancel(yes) || !yes) {
    if (fallback) {
      fs.mkdirSync(config.dataDir, { recursive: true });
      fs.writeFileSync(path.join(config.dataDir, DECLINED), "");
      p.log.info(
        "Recordings are transcribed by pocketsphinx. Set up whisper later with `notula models pull base.en`, or in the web app (Settings → Speech-to-text).",
      );
    } else
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
    // The server starts all the same; recordings wait for an engine (or go to pocketsphinx).
    p.log.error(`Setting up the local engine failed: ${(err as Error).message}`);
  }
}

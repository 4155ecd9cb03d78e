// Sets up the local speech-to-text engine on this machine: a whisper.cpp model,
// downloaded with its checksum verified (the engine itself comes with notula, see
// whisper-binding.ts). Used by the web app (for an admin) and by `notula serve`'s prompt.
import { DEFAULT_MODEL, findModel, installedModel, pullModel } from "./models.js";
import { requireWhisperBinding, whisperBindingPath } from "./transcription/whisper-binding.js";

export type SetupStep =
  { phase: "downloading"; received: number; total: number | null } | { phase: "done"; modelPath: string };

export interface LocalEngineSetupOptions {
  dataDir: string;
  /** The whisper.cpp model to download (default base.en). */
  model?: string;
  /** A mirror of the model files (NOTULA_MODELS_URL); Hugging Face unless given. */
  modelsUrl?: string;
  onStep?: (step: SetupStep) => void;
  signal?: AbortSignal;
}

/** Whether the local engine can be set up here by downloading a model (it has a build for this platform, and no model yet). */
export function localEngineMissing(dataDir: string): { model: boolean } | null {
  return whisperBindingPath() !== null && installedModel(dataDir) === null ? { model: true } : null;
}

export async function setUpLocalEngine(o: LocalEngineSetupOptions): Promise<{ modelPath: string }> {
  const name = o.model ?? DEFAULT_MODEL;
  findModel(name); // an unknown name fails before anything is installed
  requireWhisperBinding(); // no build for this platform: said before 142 MB are downloaded
  let modelPath = installedModel(o.dataDir);
  if (!modelPath) {
    o.onStep?.({ phase: "downloading", received: 0, total: null });
    modelPath = (
      await pullModel(o.dataDir, name, {
        baseUrl: o.modelsUrl,
        signal: o.signal,
        onProgress: (received, total) => o.onStep?.({ phase: "downloading", received, total }),
      })
    ).path;
  }
  o.onStep?.({ phase: "done", modelPath });
  return { modelPath };
}

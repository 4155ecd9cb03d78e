// Sets up the local speech-to-text engine on this machine: the whisper binding's CPU
// build (when it is missing) and a whisper.cpp model, downloaded with its checksum
// verified. Used by the web app (for an admin) and by `notula serve`'s prompt.
import { DEFAULT_MODEL, findModel, installedModel, pullModel } from "./models.js";
import { installWhisperBinding, whisperBindingPath } from "./transcription/whisper-binding.js";

export type SetupStep =
  | { phase: "installing" }
  | { phase: "downloading"; received: number; total: number | null }
  | { phase: "done"; modelPath: string };

export interface LocalEngineSetupOptions {
  dataDir: string;
  /** The whisper.cpp model to download (default base.en). */
  model?: string;
  /** A mirror of the model files (NOTULA_MODELS_URL); Hugging Face unless given. */
  modelsUrl?: string;
  onStep?: (step: SetupStep) => void;
  signal?: AbortSignal;
}

/** What is missing for the local engine here: nothing (null), or the parts to set up. */
export function localEngineMissing(dataDir: string): { binding: boolean; model: boolean } | null {
  const binding = whisperBindingPath(dataDir) === null;
  const model = installedModel(dataDir) === null;
  return binding || model ? { binding, model } : null;
}

export async function setUpLocalEngine(o: LocalEngineSetupOptions): Promise<{ modelPath: string }> {
  const name = o.model ?? DEFAULT_MODEL;
  findModel(name); // an unknown name fails before anything is installed
  if (whisperBindingPath(o.dataDir) === null) {
    o.onStep?.({ phase: "installing" });
    await installWhisperBinding(o.dataDir, { signal: o.signal });
  }
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

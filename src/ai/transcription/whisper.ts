// The local whisper.cpp engine, in-process through @fugood/whisper.node (prebuilt
// binaries in its npm packages). The binding is loaded on first use only.
import fs from "node:fs";
import { EngineConfigError, languageCode, SINGLE_SPEAKER, type SpeechToText } from "./engine.js";

type WhisperModule = typeof import("@fugood/whisper.node");
type WhisperContext = Awaited<ReturnType<WhisperModule["initWhisper"]>>;

async function loadBinding(): Promise<WhisperModule> {
  try {
    return await import("@fugood/whisper.node");
  } catch {
    throw new EngineConfigError(
      "The local whisper engine needs the @fugood/whisper.node package: install it next to notula (npm install @fugood/whisper.node), or use --stt-engine sphinx or an OpenAI-compatible server (--stt-url).",
    );
  }
}

export function createWhisperTranscriber(opts: { modelPath: string; threads?: number }): SpeechToText {
  let context: Promise<WhisperContext> | null = null;
  function ctx() {
    context ??= (async () => {
      if (!fs.existsSync(opts.modelPath))
        throw new EngineConfigError(
          `The whisper model ${opts.modelPath} does not exist; run \`notula models pull base.en\` or pass --model-path.`,
        );
      const binding = await loadBinding();
      try {
        return await binding.initWhisper({ filePath: opts.modelPath, useGpu: false });
      } catch (err) {
        throw new EngineConfigError(
          `${opts.modelPath} is not a whisper.cpp model the engine can load (${(err as Error).message}).`,
        );
      }
    })();
    context.catch(() => (context = null));
    return context;
  }
  return {
    name: `whisper:${opts.modelPath.split("/").pop()}`,
    windowSec: 30,
    async transcribe(wavFile, { signal, language, vocabulary }) {
      const c = await ctx();
      const job = c.transcribe(wavFile, {
        language: language?.split("-")[0] ?? "auto",
        maxThreads: opts.threads,
        // whisper.cpp's initial prompt steers the spelling of names and terms.
        ...(vocabulary?.length ? { prompt: `Glossary: ${vocabulary.join(", ")}.` } : {}),
      });
      const abort = () => void job.stop();
      signal.addEventListener("abort", abort, { once: true });
      try {
        const result = await job.promise;
        if (result.isAborted) throw new Error("Transcription was stopped.");
        // whisper.cpp times are in centiseconds.
        const segments = result.segments
          .map((s) => ({ speaker: SINGLE_SPEAKER, text: s.text.trim(), start: s.t0 / 100, end: s.t1 / 100 }))
          .filter((s) => s.text);
        return { segments, language: languageCode((result as { language?: string }).language) ?? language };
      } finally {
        signal.removeEventListener("abort", abort);
      }
    },
  };
}

/** Whether the binding can be imported here (for engine auto-selection). */
export async function whisperBindingAvailable(): Promise<boolean> {
  try {
    await import("@fugood/whisper.node");
    return true;
  } catch {
    return false;
  }
}

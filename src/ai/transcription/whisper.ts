// The local whisper.cpp engine, in-process through @fugood/whisper.node (prebuilt
// binaries in its npm packages). The binding is loaded on first use only (see whisper-binding.ts).
import fs from "node:fs";
import { EngineConfigError, languageCode, SINGLE_SPEAKER, type SpeechToText, promptOf } from "./engine.js";
import { loadWhisperBinding } from "./whisper-binding.js";

type WhisperContext = Awaited<ReturnType<ReturnType<typeof loadWhisperBinding>["initWhisper"]>>;

export function createWhisperTranscriber(opts: { modelPath: string; dataDir: string; threads?: number }): SpeechToText {
  let context: Promise<WhisperContext> | null = null;
  function ctx() {
    context ??= (async () => {
      if (!fs.existsSync(opts.modelPath))
        throw new EngineConfigError(
          `The whisper model ${opts.modelPath} does not exist; run \`notula models pull base.en\` or pass --model-path.`,
        );
      const binding = loadWhisperBinding(opts.dataDir);
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
    async transcribe(wavFile, { signal, language, vocabulary, previousText }) {
      const c = await ctx();
      const job = c.transcribe(wavFile, {
        language: language?.split("-")[0] ?? "auto",
        maxThreads: opts.threads,
        // whisper.cpp's initial prompt steers the spelling of names and terms, and carries on a cut sentence.
        ...(promptOf({ vocabulary, previousText }) ? { prompt: promptOf({ vocabulary, previousText }) } : {}),
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

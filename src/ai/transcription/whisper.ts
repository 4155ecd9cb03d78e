// The local whisper.cpp engine: windows go to the server's one whisper child (see
// whisper-host.ts), which runs them off the server's thread with every core.
import fs from "node:fs";
import path from "node:path";
import { EngineConfigError, languageCode, SINGLE_SPEAKER, type SpeechToText, promptOf } from "./engine.js";
import type { WhisperHost } from "./whisper-host.js";

/**
 * The language whisper is told: an English-only model always English (asked to detect,
 * it guesses among languages it cannot write, "tg" or "my" for English speech); a
 * multilingual one the workspace's or note's language, else "auto" to detect it.
 */
export function whisperLanguage(multilingual: boolean, wanted: string | undefined): string {
  if (!multilingual) return "en";
  return wanted?.split("-")[0].toLowerCase() || "auto";
}

/**
 * What whisper writes for sounds that are not speech, "[BLANK_AUDIO]", "[MUSIC PLAYING]",
 * "(chimes)", "♪": annotations, never words anyone said. They are taken out of the text,
 * and a segment left without words is dropped.
 */
export function withoutAnnotations(text: string): string {
  return text
    .replace(/\[[^\]]*\]|\([^)]*\)|\*[^*]*\*|[♪♫]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[-–—.,!?;:\s]+$/, "");
}

export function createWhisperTranscriber(opts: { modelPath: string; host: WhisperHost }): SpeechToText {
  /** Whether the model knows other languages than English; loading it says so, or why it cannot be loaded. */
  async function load(signal?: AbortSignal) {
    if (!fs.existsSync(opts.modelPath))
      throw new EngineConfigError(
        `The whisper model ${opts.modelPath} does not exist; run \`notula models pull base.en\` or pass --model-path.`,
      );
    return opts.host.describe(opts.modelPath, signal);
  }
  return {
    name: `whisper:${path.basename(opts.modelPath)}`,
    // whisper reads 30 s at a time: a shorter window costs as much and knows less.
    windowSec: 30,
    finalWindowSec: 30,
    async ready(signal) {
      await load(signal);
    },
    async transcribe(wavFile, { signal, language, vocabulary, previousText, draft }) {
      const { multilingual } = await load(signal);
      const result = await opts.host.transcribe({
        modelPath: opts.modelPath,
        wav: wavFile,
        language: whisperLanguage(multilingual, language),
        // whisper.cpp's initial prompt steers the spelling of names and terms, and carries on a cut sentence.
        prompt: promptOf({ vocabulary, previousText }),
        draft,
        signal,
      });
      const segments = result.segments
        .map((s) => ({ speaker: SINGLE_SPEAKER, text: withoutAnnotations(s.text), start: s.start, end: s.end }))
        .filter((s) => s.text);
      return { segments, language: languageCode(result.language) ?? language };
    },
  };
}

// What whisper is told and what is kept of what it writes, without the model: the
// language rule for English-only and multilingual models, and its sound annotations.
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createWhisperTranscriber, whisperLanguage, withoutAnnotations } from "../../src/ai/transcription/whisper.js";
import type { WhisperHost, WhisperJob } from "../../src/ai/transcription/whisper-host.js";

/**
 * The engine over a host whose model says it is multilingual (no multilingual model file
 * is at hand for the suite; the English-only path runs on real weights in whisper.test.ts):
 * what each window's job tells the model, and the language the model answers with.
 */
function multilingualEngine(detected: string | null) {
  const jobs: WhisperJob[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-whisper-lang-"));
  const model = path.join(dir, "ggml-base.bin");
  fs.writeFileSync(model, "");
  const host: WhisperHost = {
    describe: async () => ({ multilingual: true }),
    transcribe: async (job) => {
      jobs.push(job);
      return { segments: [{ text: " Bom dia a todos.", start: 0, end: 1.5 }], language: detected };
    },
    close: async () => {},
  };
  return { engine: createWhisperTranscriber({ modelPath: model, host }), jobs, wav: path.join(dir, "w.wav") };
}

describe("the language whisper is told", () => {
  it("is English for an English-only model, whatever the workspace says", () => {
    expect(whisperLanguage(false, undefined)).toBe("en");
    expect(whisperLanguage(false, "de")).toBe("en");
  });

  it("is the workspace's or note's language for a multilingual model, else detection", () => {
    expect(whisperLanguage(true, "de")).toBe("de");
    expect(whisperLanguage(true, "pt-BR")).toBe("pt");
    expect(whisperLanguage(true, undefined)).toBe("auto");
  });

  it("reaches a multilingual model: the note's language when it has one, else detection, and what was detected is the note's", async () => {
    const told = multilingualEngine("pt");
    const set = await told.engine.transcribe(told.wav, { signal: new AbortController().signal, language: "pt-BR" });
    expect(told.jobs[0].language).toBe("pt");
    expect(set.language).toBe("pt");
    const asked = multilingualEngine("pt");
    const found = await asked.engine.transcribe(asked.wav, { signal: new AbortController().signal });
    expect(asked.jobs[0].language).toBe("auto");
    expect(found.language).toBe("pt");
    expect(found.segments.map((x) => x.text)).toEqual(["Bom dia a todos."]);
  });
});

describe("what whisper writes for sounds", () => {
  it("is not words: annotations go, a segment of nothing else is empty", () => {
    expect(withoutAnnotations("[BLANK_AUDIO]")).toBe("");
    expect(withoutAnnotations(" [MUSIC PLAYING] (chimes) ♪♪ ")).toBe("");
    expect(withoutAnnotations("*laughs*")).toBe("");
    expect(withoutAnnotations("- .")).toBe("");
    expect(withoutAnnotations("We ship on Friday. [BLANK_AUDIO]")).toBe("We ship on Friday.");
    expect(withoutAnnotations("The budget (in euros) grew.")).toBe("The budget grew.");
  });
});

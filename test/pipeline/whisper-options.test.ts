// What whisper is told and what is kept of what it writes, without the model: the
// language rule for English-only and multilingual models, and its sound annotations.
import { describe, expect, it } from "vitest";
import { whisperLanguage, withoutAnnotations } from "../../src/ai/transcription/whisper.js";

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

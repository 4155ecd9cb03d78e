// A meeting read ahead while it is recorded: the model reads its finished parts and
// combines their notes, each answer kept by what it was given; once the meeting stops,
// the note asks only what is new, and is the very note the model writes of the whole
// meeting read cold. Against the local stand-in of an OpenAI-compatible server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChatClient } from "../../src/ai/llm/chat.js";
import { createChatSummarizer } from "../../src/ai/summarization/chat-summarizer.js";
import type { PartMemo } from "../../src/ai/summarization/summarizer.js";
import type { SummaryInput } from "../../src/ai/summarization/summarizer.js";
import { builtinTemplate, GENERAL_TEMPLATE_ID } from "../../src/ai/templates/builtin.js";
import { createNet } from "../../src/net/outbound.js";
import { startChatServer, type VendorServer } from "../helpers/vendors.js";

let llm: VendorServer;
beforeAll(async () => {
  llm = await startChatServer();
});
afterAll(() => llm?.close());

const mmss = (sec: number) => `${String(Math.floor(sec / 60)).padStart(2, "0")}:${String(sec % 60).padStart(2, "0")}`;
const meeting = (lines: number, userWrittenNote = ""): SummaryInput => ({
  title: "Migration review",
  userWrittenNote,
  transcript: Array.from({ length: lines }, (_, i) => ({
    speaker: `S${i % 3}`,
    text: `Line ${i} marker${i} about the migration plan and its budget.`,
    at: mmss(i * 10),
  })),
  template: builtinTemplate(GENERAL_TEMPLATE_ID)!,
  language: null,
  noteId: "note_1",
});
const memoOf = (kept = new Map<string, string>()): PartMemo & { kept: Map<string, string> } => ({
  kept,
  get: async (d) => kept.get(d) ?? null,
  put: async (d, notes) => void kept.set(d, notes),
});
const systemOf = (c: VendorServer["calls"][number]) => c.body.messages[0].content as string;
const userOf = (c: VendorServer["calls"][number]) => c.body.messages[1].content as string;
const kindOf = (c: VendorServer["calls"][number]) =>
  /Summarize this part/.test(systemOf(c)) ? "map" : /Combine these notes/.test(systemOf(c)) ? "combine" : "final";

describe("reading a meeting ahead while it is recorded", () => {
  // A small context: a part is a few lines, so 120 lines (20 minutes) are many parts.
  const model = () =>
    createChatSummarizer(
      createChatClient({ url: llm.url, model: "m", contextTokens: 1024, outbound: createNet().for("ai", "operator") }),
    );
  const signal = () => AbortSignal.timeout(60_000);

  it("leaves only the last parts, their combining and the note to ask once the meeting stops, and writes the same note", async () => {
    const full = meeting(120);
    let from = llm.calls.length;
    const cold = await model().summarize(full, { signal: signal() });
    const coldCalls = llm.calls.slice(from);
    const coldMaps = coldCalls.filter((c) => kindOf(c) === "map");
    expect(coldMaps.length).toBeGreaterThan(10);

    // While recorded: read ahead at every ten lines, as the final pass writes them.
    const memo = memoOf();
    from = llm.calls.length;
    let kept = 0;
    for (let n = 10; n < 110; n += 10) kept = (await model().readAhead!(meeting(n), { signal: signal(), memo })).parts;
    const ahead = llm.calls.slice(from);
    expect(kept).toBeGreaterThan(5);
    // No part asked twice: a part read once is kept.
    const aheadMaps = ahead.filter((c) => kindOf(c) === "map").map(userOf);
    expect(new Set(aheadMaps).size).toBe(aheadMaps.length);
    expect(ahead.some((c) => kindOf(c) === "combine")).toBe(true);
    expect(ahead.some((c) => kindOf(c) === "final")).toBe(false);

    // Stopped: the note asks what is new, and is the note read cold.
    from = llm.calls.length;
    const warm = await model().summarize(full, { signal: signal(), memo });
    const after = llm.calls.slice(from);
    expect(warm.summary).toBe(cold.summary);
    expect(warm.enhancedNote).toBe(cold.enhancedNote);
    const afterMaps = after.filter((c) => kindOf(c) === "map");
    expect(afterMaps.length).toBeLessThanOrEqual(coldMaps.length - kept);
    expect(afterMaps.length).toBeGreaterThan(0);
    expect(after.filter((c) => kindOf(c) === "combine").length).toBeLessThan(
      coldCalls.filter((c) => kindOf(c) === "combine").length,
    );
    expect(after.filter((c) => kindOf(c) === "final")).toHaveLength(2);
    // Every line reached the model in a part, ahead or after.
    const sent = [...aheadMaps, ...afterMaps.map(userOf)].join("\n");
    for (let i = 0; i < 120; i++) expect(sent).toContain(`marker${i} `);
  });

  it("reads a part again whose words changed, and keeps nothing of an answer cut short or failed", async () => {
    const memo = memoOf();
    await model().readAhead!(meeting(60), { signal: signal(), memo });
    const keptBefore = memo.kept.size;
    expect(keptBefore).toBeGreaterThan(2);
    // A line of the first part corrected: that part (and what combined it) is new; the rest is kept.
    const corrected = meeting(60);
    corrected.transcript[1] = { ...corrected.transcript[1], text: "Line 1 marker1 about the corrected plan." };
    let from = llm.calls.length;
    await model().readAhead!(corrected, { signal: signal(), memo });
    const maps = llm.calls.slice(from).filter((c) => kindOf(c) === "map");
    expect(maps.map(userOf)).toEqual([expect.stringContaining("corrected plan")]);

    // An answer cut short, or a part that failed, is asked again when the note is written.
    llm.set({ cutShortWhen: /marker70 /, failWhen: /marker80 / });
    try {
      const fresh = memoOf();
      await model().readAhead!(meeting(100), { signal: signal(), memo: fresh });
      from = llm.calls.length;
      const note = await model().summarize(meeting(100), { signal: signal(), memo: fresh });
      const again = llm.calls
        .slice(from)
        .filter((c) => kindOf(c) === "map")
        .map(userOf);
      expect(again.some((u) => u.includes("marker70 "))).toBe(true);
      expect(again.filter((u) => u.includes("marker80 "))).toHaveLength(2);
      expect(note.warnings.some((w) => /cut short/.test(w))).toBe(true);
      expect(note.warnings.some((w) => /could not be read/.test(w))).toBe(true);
    } finally {
      llm.set({ cutShortWhen: undefined, failWhen: undefined });
    }
  });

  it("cuts the same parts while the attendee's notes are still being written", async () => {
    const memo = memoOf();
    await model().readAhead!(meeting(80, "Ask about the budget."), { signal: signal(), memo });
    const from = llm.calls.length;
    await model().summarize(meeting(80, "Ask about the budget.\nAnd the second region, and who pays for it."), {
      signal: signal(),
      memo,
    });
    const maps = llm.calls.slice(from).filter((c) => kindOf(c) === "map");
    // Only the part that was still open when it was read ahead.
    expect(maps).toHaveLength(1);
  });
});

// The local language model on real weights: TinyLlama 1.1B Chat (2-bit), fetched by
// scripts/test-models.ts with node-llama-cpp's CPU build, which that script installs
// into the cache as the server installs it into a data dir. The model is weak; these
// tests prove the code path (loading, the template's grammar, streaming, cancelling,
// waiting in line, reading a long meeting in parts), not the quality of its writing.
// Answers are kept to a few dozen tokens so that the suite stays quick.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { testModelPath, testModelsDir } from "../../scripts/test-models.js";
import { createLocalLlm, type LocalLlm } from "../../src/ai/llm/local-llama.js";
import type { ChatMessage, ChatModel } from "../../src/ai/llm/chat.js";
import { createLlmAnswerer, type Moment } from "../../src/ai/ask/answerers.js";
import { createChatSummarizer } from "../../src/ai/summarization/chat-summarizer.js";
import { GENERAL_TEMPLATE_ID, builtinTemplate } from "../../src/ai/templates/builtin.js";
import { EMPTY_SECTION, sectionsOf } from "../../src/ai/templates/sections.js";
import type { TranscriptLine } from "../../src/ai/summarization/summarizer.js";
import { LocalModelError } from "../../src/ai/llm/local-model-error.js";
import { checkLocalLlm } from "../../src/services/llm-setup.js";
import { startServer, tempDir } from "../helpers/server.js";
import { client } from "../helpers/http.js";
import { waitForStatus } from "../helpers/flow.js";
import { adminBrowser } from "../helpers/admin-browser.js";
import { writeTinyGguf } from "../helpers/tiny-gguf.js";

const MODEL = testModelPath("tinyLlama");
const template = builtinTemplate(GENERAL_TEMPLATE_ID)!;
const signal = () => new AbortController().signal;
const opened: LocalLlm[] = [];
/** A local model over the cache, which holds the engine as a data dir's engines would. */
function localLlm(contextTokens: number, maxTokens: number): LocalLlm {
  // One thread: beside the suite's other files on two cores, llama.cpp's threads wait on
  // each other at every step (157 s against 215 s for two, a long meeting under load),
  // and the one core it leaves is the other files'. The server's default is the same.
  const llm = createLocalLlm({ dataDir: testModelsDir(), contextTokens, threads: 1, maxTokens });
  opened.push(llm);
  return llm;
}
afterAll(async () => {
  for (const llm of opened) await llm.close();
});

const MEETING: TranscriptLine[] = [
  { at: "00:00", speaker: "Ana", text: "We decided to open the Lisbon office in March." },
  { at: "00:06", speaker: "Ben", text: "The budget for Lisbon is two hundred thousand euros." },
  { at: "00:12", speaker: "Ana", text: "Ben will send the lease to legal by Friday." },
  { at: "00:18", speaker: "Cleo", text: "I will hire six people for the Lisbon office." },
];

/** The meeting as POST /v1/notes takes it. */
const MEETING_LINES = MEETING.map((l, i) => ({
  speaker: l.speaker,
  text: l.text,
  startTimestamp: l.at,
  endTimestamp: MEETING[i + 1]?.at ?? "00:24",
}));

/** Sentences and list items, lowercased, that occur more than once in `text`. */
function repeated(text: string): string[] {
  const seen = new Set<string>();
  const twice: string[] = [];
  for (const s of text.split(/(?<=[.!?])\s+|\n/)) {
    const key = s
      .replace(/^[-*#\s]+/, "")
      .trim()
      .toLowerCase();
    if (key.length < 12 || key === EMPTY_SECTION.toLowerCase()) continue;
    if (seen.has(key)) twice.push(key);
    seen.add(key);
  }
  return twice;
}

describe("the local language model on real weights", () => {
  const short = localLlm(4096, 96);
  const chat = short.chat(MODEL);

  it("loads, and takes its context size from the model (2048 tokens, under the 4096 allowed)", async () => {
    expect(chat.name).toBe("local:tinyllama-1.1b-chat-v1.0.IQ2_XXS");
    expect(await chat.contextTokens()).toBe(2048);
    expect(await chat.charsPerToken("We decided to open the Lisbon office in March.")).toBeGreaterThan(2);
  }, 120_000);

  const moments: Moment[] = MEETING.map((l, i) => ({
    n: i + 1,
    noteId: "not_1",
    title: "Office planning",
    createdAt: Date.UTC(2026, 10, 27),
    startSec: i * 6,
    speaker: l.speaker,
    quote: l.text,
    context: `${l.speaker}: ${l.text}`,
  }));

  it("streams an answer whose citations name only the moments it was given", async () => {
    const pieces: string[] = [];
    await createLlmAnswerer(chat).answer(
      { question: "What is the budget for Lisbon?", moments, history: [] },
      (t) => pieces.push(t),
      signal(),
    );
    expect(pieces.length).toBeGreaterThan(3);
    const answer = pieces.join("");
    const cited = [...answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    for (const n of cited) expect(n, answer).toBeGreaterThanOrEqual(1);
    for (const n of cited) expect(n, answer).toBeLessThanOrEqual(moments.length);
    expect(repeated(answer)).toEqual([]);
  }, 300_000);

  // Answers of a few words: what is checked is the queue, not what is said.
  const quick = localLlm(4096, 24);
  it("frees the model for the next question when an answer is cancelled, and tells a waiting one its place", async () => {
    const first = new AbortController();
    const queued: number[] = [];
    const pieces: string[] = [];
    const ask = (question: string, s: AbortSignal, onText: (t: string) => void, onQueued?: (n: number) => void) =>
      createLlmAnswerer(quick.chat(MODEL)).answer({ question, moments, history: [] }, onText, s, { onQueued });
    const running = ask("Who will hire people?", first.signal, () => first.abort(new Error("cancelled")));
    const waiting = ask(
      "When does the office open?",
      signal(),
      (t) => pieces.push(t),
      (n) => queued.push(n),
    );
    await expect(running).rejects.toThrow("cancelled");
    await waiting;
    expect(queued).toEqual([1]);
    expect(pieces.join("").trim().length).toBeGreaterThan(0);
    expect(quick.waiting()).toBe(0);
  }, 300_000);
});

/** Records what the model was asked and what it answered. */
function recorded(model: ChatModel) {
  const calls: { asked: ChatMessage[]; answered: string }[] = [];
  const spy: ChatModel = {
    ...model,
    async once(messages, s, opts) {
      const r = await model.once(messages, s, opts);
      calls.push({ asked: messages, answered: r.content });
      return r;
    },
  };
  return { spy, calls };
}

describe("a long meeting on real weights", () => {
  it("is read in parts, each line in one part, and every part's notes reach the summary and the note", async () => {
    // Two hours, a line every two minutes: few tokens, so a small context splits it into
    // parts as a dense transcript splits a model's whole context.
    const lines: TranscriptLine[] = [];
    for (let i = 0; i < 60; i++) {
      const sec = i * 120;
      const at = [sec / 3600, (sec % 3600) / 60, sec % 60].map((n) => String(Math.floor(n)).padStart(2, "0")).join(":");
      lines.push({ at, speaker: i % 2 ? "Ben" : "Cleo", text: `We went through item ${i + 1} of the plan.` });
    }
    const { spy, calls } = recorded(localLlm(1536, 32).chat(MODEL));
    const r = await createChatSummarizer(spy).summarize(
      { title: "Planning day", userWrittenNote: "", transcript: lines, template, language: "en" },
      { signal: signal() },
    );
    const maps = calls.filter((c) => /, part \d+ \(/.test(c.asked[1].content));
    expect(maps.length).toBeGreaterThanOrEqual(3);
    // Answers are cut at 32 tokens here; no part may go unread.
    expect(r.warnings.filter((w) => !/cut short by the model's answer limit/.test(w))).toEqual([]);
    for (const l of lines)
      expect(maps.filter((c) => c.asked[1].content.includes(`[${l.at}] ${l.speaker}: ${l.text}`))).toHaveLength(1);
    // What the model noted of each part is in what the summary and the note are written from.
    const last = calls.slice(-2);
    expect(last.map((c) => c.asked[0].content)).toEqual([
      expect.stringMatching(/summary of the whole meeting/),
      expect.stringMatching(/You write meeting notes/),
    ]);
    for (const [i, m] of maps.entries())
      for (const c of last) {
        expect(c.asked[1].content).toContain(`Part ${i + 1} (`);
        for (const item of m.answered.split("\n").filter((x) => x.startsWith("- ")))
          expect(c.asked[1].content).toContain(item);
      }
    expect(sectionsOf(r.enhancedNote, template).size).toBe(3);
  }, 900_000);
});

describe("a model file that is not a whole GGUF", () => {
  it("is named for what it is, by the server and by the setup's check, before llama.cpp is given it", async () => {
    const dir = tempDir("notula-gguf-");
    const notGguf = path.join(dir, "weights.gguf");
    fs.writeFileSync(notGguf, Buffer.concat([Buffer.from("PK\x03\x04"), Buffer.alloc(8192, 1)]));
    // The real model cut short, as an interrupted download leaves it.
    const cut = path.join(dir, "tinyllama-cut.gguf");
    const whole = fs.openSync(MODEL, "r");
    const head = Buffer.alloc(64 * 1024 * 1024);
    fs.readSync(whole, head, 0, head.length, 0);
    fs.closeSync(whole);
    fs.writeFileSync(cut, head);

    const llm = localLlm(2048, 8);
    const ask = (file: string) => llm.chat(file).once([{ role: "user", content: "Hello" }], signal());
    await expect(ask(notGguf)).rejects.toThrow(
      new LocalModelError("weights.gguf is not a GGUF model file: it does not begin as one does"),
    );
    await expect(ask(cut)).rejects.toThrow(
      /^tinyllama-cut\.gguf is incomplete: it has 67108864 bytes, but its weights run past byte \d+\. Download it again\.$/,
    );
    await expect(ask(cut)).rejects.toBeInstanceOf(LocalModelError);
    await expect(checkLocalLlm(testModelsDir(), cut)).rejects.toThrow(/^tinyllama-cut\.gguf is incomplete/);
    await expect(checkLocalLlm(testModelsDir(), notGguf)).rejects.toThrow(/^weights\.gguf is not a GGUF model file/);
    // The whole file passes the same check and runs.
    await expect(checkLocalLlm(testModelsDir(), MODEL)).resolves.toBeUndefined();
  }, 300_000);
});

describe("the server on real weights", () => {
  it("writes a recorded meeting's notes with the local model, named as their writer, and answers from them", async () => {
    // A data dir whose engines are the cache's (installed there as the server installs them).
    const dataDir = tempDir("notula-real-llm-");
    fs.symlinkSync(path.join(testModelsDir(), "engines"), path.join(dataDir, "engines"));
    const server = await startServer({
      dataDir,
      args: ["--no-rate-limit", "--llm-engine", "local", "--llm-model-path", MODEL],
      env: { NOTULA_LLM_LOCAL_MAX_TOKENS: "64" },
    });
    try {
      const api = client(server.url, server.key);
      const made = await api("POST", "/v1/notes", {
        title: "Office planning",
        transcripts: MEETING_LINES,
      });
      const id = made.body.note?.id ?? made.body.id;
      await waitForStatus(api, id, ["completed", "recorded-not-summarized"], 600_000);
      const note = (await api("GET", `/v1/notes/${id}`)).body.note;
      expect(note.status).toBe("completed");
      expect(note.processingInfo.summary).toBe("local:tinyllama-1.1b-chat-v1.0.IQ2_XXS");
      expect(note.summary.trim()).not.toBe("");
      expect(sectionsOf(note.enhancedNote, template).size).toBe(3);
      expect(note.enhancedNote).toMatch(/^## Key points\n\n- \S/m);
      // The grammar holds it to the sections; what fills them is the model's own reading, said once.
      expect((note.processingWarnings ?? []).filter((w: string) => /left out the section/.test(w))).toEqual([]);
      expect(repeated(note.summary)).toEqual([]);
      expect(repeated(note.enhancedNote)).toEqual([]);

      const asked = await api(
        "POST",
        "/v1/ask",
        { question: "What is the Lisbon budget?" },
        { accept: "application/json" },
      );
      expect(asked.status, asked.text).toBe(200);
      expect(asked.body.engine).toBe("local:tinyllama-1.1b-chat-v1.0.IQ2_XXS");
      expect(asked.body.found).toBe(true);
      expect(asked.body.answer.trim()).not.toBe("");
      expect(asked.body.citations[0].noteId).toBe(id);
    } finally {
      await server.stop();
    }
  }, 900_000);
});

describe("a context the machine cannot hold", () => {
  it("is refused at once by name, shown on Settings → AI, and the note is written offline", async () => {
    // A tiny model that claims a context of 67 million tokens, asked for all of it:
    // llama.cpp's memory for that is hundreds of gigabytes.
    const dataDir = tempDir("notula-llm-memory-");
    fs.symlinkSync(path.join(testModelsDir(), "engines"), path.join(dataDir, "engines"));
    const huge = writeTinyGguf(path.join(tempDir("notula-gguf-"), "tiny-huge-context.gguf"), {
      contextLength: 2 ** 26,
    });
    const server = await startServer({
      dataDir,
      args: ["--no-rate-limit", "--llm-engine", "local", "--llm-model-path", huge],
      env: { NOTULA_LLM_LOCAL_CONTEXT_TOKENS: String(2 ** 26) },
    });
    try {
      const a = await adminBrowser(server, "admin");
      const made = await a.api("POST", "/v1/notes", {
        title: "Too big a context",
        transcripts: MEETING_LINES,
      });
      const id = made.body.note?.id ?? made.body.id;
      await waitForStatus(a.api, id, ["completed"], 120_000);
      const note = (await a.api("GET", `/v1/notes/${id}`)).body.note;
      expect(note.processingInfo.summary).toBe("extractive");
      expect(note.summary.trim()).not.toBe("");
      const said =
        /^The local language model tiny-huge-context\.gguf needs about [\d.]+ GB of memory for a context of 67108864 tokens, and [\d.]+ GB is free; lower NOTULA_LLM_LOCAL_CONTEXT_TOKENS or free memory/;
      expect(note.processingWarnings.join("\n")).toMatch(said);
      expect(note.processingWarnings.join("\n")).toMatch(/this note was written offline instead/);
      const config = (await a.api("GET", "/v1/ai-config")).body.aiConfig;
      expect(config.localModel.problem).toMatch(said);
      const page = (await a.page("/settings/ai")).html;
      expect(page).toContain('id="local-llm-problem"');
      expect(page).toContain("67108864 tokens");
    } finally {
      await server.stop();
    }
  }, 300_000);
});

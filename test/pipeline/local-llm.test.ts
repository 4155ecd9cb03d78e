// The local language model, on its real path: node-llama-cpp's CPU build installed by
// the server with npm, a GGUF file downloaded from a model host with its checksum, tried
// once in a child, then writing a meeting's notes and answering a question in-process.
// The model is a tiny one written by the test (test/helpers/tiny-gguf.ts) that always
// writes the same short note, so what comes out can be checked to the word.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalLlm } from "../../src/ai/llm/local-llama.js";
import { LocalModelError } from "../../src/ai/llm/local-model-error.js";
import { answererWithFallback } from "../../src/ai/llm/local-fallback.js";
import { createExtractiveAnswerer, createLlmAnswerer } from "../../src/ai/ask/answerers.js";
import { createChatSummarizer } from "../../src/ai/summarization/chat-summarizer.js";
import { GENERAL_TEMPLATE_ID, builtinTemplate } from "../../src/ai/templates/builtin.js";
import { adminBrowser } from "../helpers/admin-browser.js";
import { waitForStatus } from "../helpers/flow.js";
import { startModelHost, type ModelHost } from "../helpers/model-host.js";
import { cliEnv, run, startServer, tempDir, type TestServer } from "../helpers/server.js";
import { TINY_TEXT, writeTinyGguf } from "../helpers/tiny-gguf.js";
import { until } from "../helpers/until.js";
import type { SetupState } from "../helpers/admin-browser.js";

const GOOD = "qwen2.5-1.5b-instruct-q4_k_m.gguf";
const BROKEN = "gemma-3-1b-it-Q4_K_M.gguf";

let host: ModelHost;
let server: TestServer;
let model: string;

beforeAll(async () => {
  model = writeTinyGguf(path.join(tempDir("notula-gguf-"), "tiny.gguf"));
  // A file that starts as a GGUF does and then is not one.
  const broken = Buffer.concat([Buffer.from("GGUF"), Buffer.alloc(4096, 7)]);
  host = await startModelHost(0, { files: { [GOOD]: fs.readFileSync(model), [BROKEN]: broken } });
  server = await startServer({ args: ["--no-rate-limit"], env: { NOTULA_MODELS_URL: host.url } });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await host?.close();
});

/** The setup's state once it has ended, one way or the other. */
const ended = (status: (at: string) => Promise<SetupState>, timeoutMs: number) =>
  until(
    "the local model's setup to end",
    async () => {
      const s = await status("/settings/ai/local/status");
      return s.phase === "done" || s.phase === "failed" ? s : null;
    },
    timeoutMs,
    200,
  );

const line = (speaker: string, text: string, start: string, end: string) => ({
  speaker,
  text,
  startTimestamp: start,
  endTimestamp: end,
});

describe("the local language model", () => {
  it("is set up from Settings → AI: its engine installed alone, a model llama.cpp cannot run refused and removed", async () => {
    const member = await adminBrowser(server, "member");
    expect((await member.post("/settings/ai/local/setup", { model: "gemma-3-1b" })).status).toBe(403);

    const a = await adminBrowser(server, "admin");
    expect((await a.page("/settings/ai")).html).toContain("None is set up.");
    expect((await a.post("/settings/ai/local/setup", { model: "gemma-3-1b" })).status).toBe(303);
    const failed = await ended(a.status, 600_000);
    expect(failed.phase).toBe("failed");
    expect(failed.error).toMatch(
      /^gemma-3-1b-it-Q4_K_M\.gguf is not a readable GGUF model file: its header is damaged \(.+\); the file was removed/,
    );
    expect(fs.existsSync(path.join(server.dataDir, "models", "llm", BROKEN))).toBe(false);

    // The engine is there, its CPU build alone.
    const modules = path.join(server.dataDir, "engines", "node_modules");
    expect(fs.existsSync(path.join(modules, "node-llama-cpp", "package.json"))).toBe(true);
    expect(fs.readdirSync(path.join(modules, "@node-llama-cpp"))).toEqual([`${process.platform}-${process.arch}`]);
    // Nothing was switched, and the server answers as before.
    const config = (await a.api("GET", "/v1/ai-config")).body.aiConfig;
    expect(config.llm.engine).toBeNull();
    expect(config.effective.summary).toBe("extractive");
    expect(config.localModel).toMatchObject({ file: null, engineInstalled: true, problem: null });
    const refused = await a.api("PATCH", "/v1/ai-config", { llm: { engine: "local" } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^llm\.engine: no local language model is set up/);
    const noServer = await a.api("PATCH", "/v1/ai-config", { llm: { engine: "openai" } });
    expect(noServer.status).toBe(400);
    expect(noServer.body.error.message).toMatch(/^llm\.engine: openai needs a server/);
  }, 900_000);

  it("downloads a model with its checksum, tries it, and then writes the workspace's notes with it", async () => {
    const a = await adminBrowser(server, "admin");
    expect((await a.post("/settings/ai/local/setup", { model: "qwen2.5-1.5b" })).status).toBe(303);
    const done = await ended(a.status, 300_000);
    expect(done).toMatchObject({ phase: "done", error: null, total: fs.statSync(model).size });
    const config = (await a.api("GET", "/v1/ai-config")).body.aiConfig;
    expect(config.llm.engine).toBe("local");
    expect(config.localModel).toMatchObject({ file: GOOD, engineInstalled: true, problem: null });
    expect(config.effective.summary).toBe("local:qwen2.5-1.5b-instruct-q4_k_m");
    expect((await a.page("/settings/ai")).html).toContain(`In use: ${GOOD} writes the notes and answers.`);

    const tested = await a.post("/settings/ai/test", {});
    expect(await tested.text()).toContain("local:qwen2.5-1.5b-instruct-q4_k_m answered: “## Key points");

    const made = await a.api("POST", "/v1/notes", {
      title: "Office planning",
      transcripts: [
        line("Ana", "We decided to open the Lisbon office in March.", "00:00", "00:06"),
        line("Ben", "The budget for Lisbon is two hundred thousand euros.", "00:06", "00:12"),
      ],
    });
    const id = made.body.note?.id ?? made.body.id;
    await waitForStatus(a.api, id, ["completed"], 120_000);
    const note = (await a.api("GET", `/v1/notes/${id}`)).body.note;
    expect(note.processingInfo.summary).toBe("local:qwen2.5-1.5b-instruct-q4_k_m");
    // The note is held to the template's sections by a grammar: this model, built to
    // write one text, writes what the grammar lets through of it under each.
    expect(note.enhancedNote).toMatch(/^## Key points\n[^]*\n## Decisions\n[^]*\n## Action items\n/);
    expect(note.summary).toContain("The team agreed the Lisbon office budget");

    // An answer from it, on the moments found.
    const asked = await a.api(
      "POST",
      "/v1/ask",
      { question: "What is the Lisbon budget?" },
      { accept: "application/json" },
    );
    expect(asked.status, asked.text).toBe(200);
    expect(asked.body.engine).toBe("local:qwen2.5-1.5b-instruct-q4_k_m");
    expect(asked.body.answer).toBe(TINY_TEXT);
    expect(asked.body.found).toBe(true);
    expect(asked.body.citations[0].noteId).toBe(id);

    // Going back to extracts, by choice: "auto" would take the local model again.
    expect((await a.post("/settings/ai/remove", {})).status).toBe(303);
    expect((await a.api("GET", "/v1/ai-config")).body.aiConfig.effective.summary).toBe("extractive");
    expect((await a.post("/settings/ai/local/use", {})).status).toBe(303);
    expect((await a.api("GET", "/v1/ai-config")).body.aiConfig.effective.summary).toMatch(/^local:/);
  }, 600_000);

  it("missing from the server, writes notes offline and quotes the moments, and the settings page says why", async () => {
    const a = await adminBrowser(server, "admin");
    const file = path.join(server.dataDir, "models", "llm", GOOD);
    const kept = `${file}.kept`;
    fs.renameSync(file, kept);
    try {
      const asked = await a.api(
        "POST",
        "/v1/ask",
        { question: "What is the Lisbon budget?" },
        { accept: "application/json" },
      );
      expect(asked.status, asked.text).toBe(200);
      expect(asked.body.engine, JSON.stringify(asked.body)).toBe("extractive");
      expect(asked.body.answer).toMatch(/^The local language model is not set up: set it up again in Settings → AI/);
      expect(asked.body.answer).toContain("Quotes from your meetings");
      expect(asked.body.found).toBe(true);

      const made = await a.api("POST", "/v1/notes", {
        title: "Without its model",
        transcripts: [line("Ana", "We decided to open the Lisbon office in March.", "00:00", "00:06")],
      });
      const id = made.body.note?.id ?? made.body.id;
      await waitForStatus(a.api, id, ["completed"], 120_000);
      const note = (await a.api("GET", `/v1/notes/${id}`)).body.note;
      expect(note.processingInfo.summary).toBe("extractive");
      expect(note.processingWarnings.join(" ")).toMatch(/this note was written offline instead/);

      const config = (await a.api("GET", "/v1/ai-config")).body.aiConfig;
      expect(config.localModel.problem).toMatch(/^The local language model is not set up/);
      expect((await a.page("/settings/ai")).html).toContain('id="local-llm-problem"');
    } finally {
      fs.renameSync(kept, file);
    }
    // Back, it answers again, and the problem is cleared.
    const again = await a.api(
      "POST",
      "/v1/ask",
      { question: "What is the Lisbon budget?" },
      { accept: "application/json" },
    );
    expect(again.body.answer).toBe(TINY_TEXT);
    expect((await a.api("GET", "/v1/ai-config")).body.aiConfig.localModel.problem).toBeNull();
  }, 300_000);

  it("is listed and pulled by the CLI on a data dir that has it already", async () => {
    const r = await run(["models", "list", "--data-dir", server.dataDir, "--json"], { env: cliEnv(server) });
    expect(r.code, r.stderr).toBe(0);
    const items = JSON.parse(r.stdout).items as { name: string; kind: string; installed: boolean }[];
    expect(items.find((m) => m.name === "qwen2.5-1.5b")).toMatchObject({ kind: "language model", installed: true });
    expect(items.find((m) => m.name === "gemma-3-1b")).toMatchObject({ installed: false });
  }, 120_000);
});

describe("the local model's host", () => {
  it("refuses a file that is not a readable GGUF, and an answer then quotes the moments", async () => {
    const llm = createLocalLlm({ dataDir: server.dataDir, contextTokens: 2048, threads: 1 });
    const broken = path.join(tempDir("notula-gguf-"), "broken.gguf");
    fs.writeFileSync(broken, Buffer.concat([Buffer.from("GGUF"), Buffer.alloc(4096, 7)]));
    const reported: (string | null)[] = [];
    try {
      await expect(
        llm.chat(broken).once([{ role: "user", content: "hello" }], AbortSignal.timeout(60_000)),
      ).rejects.toThrow(LocalModelError);
      const answerer = answererWithFallback(
        () => createLlmAnswerer(llm.chat(broken)),
        createExtractiveAnswerer,
        async (m) => void reported.push(m),
      );
      let text = "";
      await answerer.answer(
        {
          question: "budget?",
          history: [],
          moments: [
            {
              n: 1,
              noteId: "note_1",
              title: "Planning",
              createdAt: 0,
              startSec: 5,
              speaker: "Ana",
              quote: "The budget is set.",
              context: "The budget is set.",
            },
          ],
        },
        (t) => (text += t),
        AbortSignal.timeout(60_000),
      );
      expect(answerer.name).toBe("extractive");
      expect(text).toMatch(
        /^broken\.gguf is not a readable GGUF model file: its header is damaged \(.+\)\.\n\nQuotes from your meetings/,
      );
      expect(text).toContain('[1] Ana at 0:05 in Planning, 1 Jan 1970: "The budget is set."');
      expect(reported).toHaveLength(1);
      expect(reported[0]).toMatch(/^broken\.gguf is not a readable GGUF model file/);
    } finally {
      await llm.close();
    }
  }, 120_000);

  it("answers one request at a time, telling the others their place in line", async () => {
    const llm = createLocalLlm({ dataDir: server.dataDir, contextTokens: 2048, threads: 1 });
    try {
      const chat = llm.chat(model);
      const told: number[][] = [[], [], []];
      const order: number[] = [];
      const asks = [0, 1, 2].map((i) =>
        chat
          .stream([{ role: "user", content: `question ${i}` }], () => {}, AbortSignal.timeout(120_000), {
            onQueued: (ahead) => told[i].push(ahead),
          })
          .then((r) => {
            order.push(i);
            return r.content;
          }),
      );
      expect(await Promise.all(asks)).toEqual([TINY_TEXT, TINY_TEXT, TINY_TEXT]);
      expect(order).toEqual([0, 1, 2]);
      expect(told).toEqual([[], [1], [2, 1]]);
      expect(llm.waiting()).toBe(0);
    } finally {
      await llm.close();
    }
  }, 120_000);

  it("loads another model only in its turn, never under an answer being written", async () => {
    const llm = createLocalLlm({ dataDir: server.dataDir, contextTokens: 2048, threads: 1 });
    const other = path.join(path.dirname(model), "tiny-other.gguf");
    fs.copyFileSync(model, other);
    try {
      const chat = llm.chat(model);
      const order: string[] = [];
      const ask = (i: number) =>
        chat.once([{ role: "user", content: `question ${i}` }], AbortSignal.timeout(120_000)).then((r) => {
          order.push(`answer ${i}`);
          return r.content;
        });
      const answers = [ask(0), ask(1)];
      // Asked while the first model answers: the other model's size waits for both answers.
      const size = llm
        .chat(other)
        .contextTokens()
        .then((n) => {
          order.push("other model");
          return n;
        });
      expect(await Promise.all(answers)).toEqual([TINY_TEXT, TINY_TEXT]);
      expect(await size).toBeGreaterThan(0);
      expect(order).toEqual(["answer 0", "answer 1", "other model"]);
      expect(llm.waiting()).toBe(0);
    } finally {
      await llm.close();
    }
  }, 120_000);

  it("reads a meeting longer than its context in parts that fit, and refuses a prompt that cannot fit", async () => {
    const llm = createLocalLlm({ dataDir: server.dataDir, contextTokens: 4096, threads: 1 });
    try {
      const chat = llm.chat(model);
      expect(await chat.contextTokens()).toBe(4096);
      const prompts: number[] = [];
      const counting = {
        ...chat,
        once: (m: Parameters<typeof chat.once>[0], s: AbortSignal) => {
          prompts.push(m.reduce((n, x) => n + x.content.length, 0));
          return chat.once(m, s);
        },
      };
      const transcript = Array.from({ length: 40 }, (_, i) =>
        line(i % 2 ? "Ben" : "Ana", `Point ${i}: the Lisbon office needs a decision on its budget.`, "00:00", "00:05"),
      );
      const template = builtinTemplate(GENERAL_TEMPLATE_ID)!;
      const r = await createChatSummarizer(counting).summarize(
        {
          title: "Long",
          userWrittenNote: "",
          transcript: transcript.map((l) => ({ speaker: l.speaker, text: l.text, at: l.startTimestamp })),
          template,
          language: null,
        },
        { signal: AbortSignal.timeout(120_000) },
      );
      // Its tokenizer reads this text a byte a token: 2,800 characters are read in parts,
      // each with its instructions within half the context.
      expect(prompts.length).toBeGreaterThan(5);
      expect(Math.max(...prompts)).toBeLessThan(2048);
      expect(r.warnings).toEqual([]);
      expect(r.enhancedNote).toContain("Ana will send the budget by Friday");

      await expect(
        chat.once([{ role: "user", content: "x".repeat(8000) }], AbortSignal.timeout(60_000)),
      ).rejects.toThrow(/context \(4096 tokens\) cannot hold this request/);
    } finally {
      await llm.close();
    }
  }, 120_000);
});

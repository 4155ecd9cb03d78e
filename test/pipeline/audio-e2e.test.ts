// Real speech, end to end: flite speaks, ffmpeg encodes each upload format, the
// server decodes, transcribes and summarizes, and the words come back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convert, FORMATS, speak, type Format } from "../helpers/audio.js";
import { uploadRecording, waitForStatus } from "../helpers/flow.js";
import { client } from "../helpers/http.js";
import { startServer, tempDir, type TestServer } from "../helpers/server.js";
import { startChatServer, startTranscriptionServer, wordOverlap, type VendorServer } from "../helpers/vendors.js";

const SPOKEN =
  "Please schedule a meeting with the design team for Tuesday afternoon. Our quarterly revenue grew by twelve percent compared to last year.";
const work = tempDir("notula-e2e-");
let speech: string;

beforeAll(() => {
  speech = speak(work, SPOKEN);
});

describe("local engine (pocketsphinx) with the extractive summary", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ args: ["--no-rate-limit", "--stt-engine", "sphinx"] });
  });
  afterAll(() => server?.stop());

  for (const format of Object.keys(FORMATS) as Format[]) {
    it(`${format}: upload → completed, the transcript holds the spoken words`, async () => {
      const api = client(server.url, server.key);
      const id = await uploadRecording(api, convert(speech, format), format, { title: `Speech ${format}` });
      const note = await waitForStatus(api, id);
      expect(note.status, note.processingError).toBe("completed");
      const heard = note.transcripts.map((s: { text: string }) => s.text).join(" ");
      expect(wordOverlap(SPOKEN, heard), heard).toBeGreaterThanOrEqual(0.6);
      for (const s of note.transcripts) {
        expect(s.speaker).toBe("Speaker");
        expect(s.startTimestamp).toMatch(/^\d{2,}:\d{2}$/);
        expect(s.endTimestamp >= s.startTimestamp).toBe(true);
      }
      // The measured duration, not the declared 30 s.
      expect(note.totalDurationSec).toBeGreaterThanOrEqual(7);
      expect(note.totalDurationSec).toBeLessThanOrEqual(12);
      expect(note.processingInfo).toEqual({ transcription: "sphinx:en-us", summary: "extractive" });
      expect(note.summary.length).toBeGreaterThan(10);
      expect(note.enhancedNote).toContain("## Key points");
      expect(note.processingError).toBeNull();
    });
  }
});

describe("OpenAI-compatible transcription and chat servers", () => {
  let server: TestServer;
  let stt: VendorServer;
  let llm: VendorServer;
  beforeAll(async () => {
    stt = await startTranscriptionServer({ apiKey: "stt-key" });
    llm = await startChatServer({ apiKey: "llm-key" });
    server = await startServer({
      args: ["--no-rate-limit", "--stt-url", stt.url, "--llm-url", llm.url, "--llm-model", "test-model"],
      env: { NOTULA_STT_API_KEY: "stt-key", NOTULA_LLM_API_KEY: "llm-key" },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await stt?.close();
    await llm?.close();
  });

  it("transcribes through /audio/transcriptions and summarizes through /chat/completions", async () => {
    const api = client(server.url, server.key);
    const id = await uploadRecording(api, convert(speech, "m4a"), "m4a", { title: "Revenue" });
    const note = await waitForStatus(api, id);
    expect(note.status, note.processingError).toBe("completed");
    expect(note.processingInfo).toEqual({ transcription: "openai:whisper-1", summary: "openai:test-model" });
    const heard = note.transcripts.map((s: { text: string }) => s.text).join(" ");
    expect(wordOverlap(SPOKEN, heard), heard).toBeGreaterThanOrEqual(0.6);
    expect(stt.calls[0].body).toMatchObject({ model: "whisper-1", response_format: "verbose_json" });
    expect(stt.calls[0].headers.authorization).toBe("Bearer stt-key");
    expect(note.summary).toMatch(/^Summary by the model/);
    expect(note.enhancedNote).toContain("## Key points");
    expect(llm.calls.every((c) => c.body.model === "test-model" && c.headers.authorization === "Bearer llm-key")).toBe(
      true,
    );
  });

  it("a transcript longer than the model's context is summarized in parts, none of it dropped", async () => {
    const small = await startServer({
      args: ["--no-rate-limit", "--llm-url", llm.url],
      env: { NOTULA_LLM_CONTEXT_TOKENS: "1024", NOTULA_LLM_API_KEY: "llm-key" },
    });
    try {
      const api = client(small.url, small.key);
      const before = llm.calls.length;
      const transcripts = Array.from({ length: 300 }, (_, i) => ({
        speaker: `S${i % 3}`,
        text: `Line ${i} marker${i} about the migration plan and its budget.`,
        startTimestamp: `${String(Math.floor(i / 6)).padStart(2, "0")}:${String((i * 10) % 60).padStart(2, "0")}`,
        endTimestamp: `${String(Math.floor(i / 6)).padStart(2, "0")}:${String((i * 10 + 9) % 60).padStart(2, "0")}`,
      }));
      const created = await api("POST", "/v1/notes", { title: "Long", transcripts });
      const note = await waitForStatus(api, created.body.note.id);
      expect(note.status, note.processingError).toBe("completed");
      const calls = llm.calls.slice(before).map((c) => c.body.messages[1].content as string);
      const maps = calls.filter((u) => /, part \d+ \(/.test(u));
      expect(maps.length).toBeGreaterThan(3);
      // Each request fits the context (4 characters a token is generous for this text).
      for (const c of calls) expect(c.length / 3.5).toBeLessThan(1024);
      // Every line reached the model in some part.
      const sent = maps.join("\n");
      for (let i = 0; i < 300; i++) expect(sent).toContain(`marker${i} `);
    } finally {
      await small.stop();
    }
  });
});

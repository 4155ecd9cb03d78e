// Faults in processing: kill -9 in each stage, vendor errors, retries, bad config.
// Afterwards nothing is lost, duplicated or stuck.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convert, speak } from "../helpers/audio.js";
import { uploadRecording, waitForStatus } from "../helpers/flow.js";
import { client } from "../helpers/http.js";
import { until } from "../helpers/until.js";
import { startServer, startServerProcess, tempDir, type TestServer, storeQuery } from "../helpers/server.js";
import { startChatServer, startTranscriptionServer, type VendorServer } from "../helpers/vendors.js";

const work = tempDir("notula-faults-");
let recording: string;
let stt: VendorServer;
let llm: VendorServer;

beforeAll(async () => {
  recording = convert(speak(work, "The roadmap review moved to Thursday. Maria will send the slides."), "mp3");
  stt = await startTranscriptionServer();
  llm = await startChatServer();
});
afterAll(async () => {
  await stt?.close();
  await llm?.close();
});

function vendorArgs() {
  return ["--no-rate-limit", "--stt-url", stt.url, "--llm-url", llm.url];
}

const dbRows = (server: TestServer, sql: string, ...params: unknown[]) => storeQuery(server.dataDir, sql, ...params);

async function expectSound(server: TestServer, noteId: string) {
  const segments = await dbRows(
    server,
    "SELECT position, start_sec, text FROM transcript_segments WHERE note_id = ? ORDER BY position",
    noteId,
  );
  const keys = segments.map((s) => `${s.start_sec}|${s.text}`);
  expect(new Set(keys).size).toBe(keys.length);
  expect(segments.map((s) => s.position)).toEqual(segments.map((_, i) => i));
  const jobs = await dbRows(server, "SELECT status FROM jobs WHERE idempotency_key = ?", `process-note:${noteId}`);
  expect(jobs.filter((j) => j.status === "queued" || j.status === "running")).toEqual([]);
  expect((await dbRows(server, "SELECT count(*) AS n FROM notes WHERE id = ?", noteId))[0].n).toBe(1);
}

describe("kill -9 during each stage, then restart", () => {
  for (const stage of ["postprocessing", "transcript-processing", "summarizing"] as const) {
    it(`killed in ${stage}: resumes to completed with nothing duplicated`, async () => {
      stt.set({ delayMs: stage === "transcript-processing" ? 1500 : 0 });
      llm.set({ delayMs: stage === "summarizing" ? 1500 : 0 });
      const server = await startServerProcess({ args: vendorArgs() });
      try {
        const api = client(server.url, server.key);
        const id = await uploadRecording(api, recording, "mp3");
        if (stage !== "postprocessing") await waitForStatus(api, id, [stage], 20_000);
        await server.kill9();
        stt.set({ delayMs: 0 });
        llm.set({ delayMs: 0 });
        await server.restart();
        const note = await waitForStatus(client(server.url, server.key), id);
        expect(note.status, note.processingError).toBe("completed");
        expect(note.transcripts.length).toBeGreaterThan(0);
        expect(note.summary).toMatch(/^Summary by the model/);
        await expectSound(server, id);
      } finally {
        await server.stop();
      }
    });
  }
});

describe("retries and failures", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      args: vendorArgs(),
      env: { NOTULA_PIPELINE_RETRY_BASE_MS: "200", NOTULA_PIPELINE_MAX_ATTEMPTS: "3" },
    });
  });
  afterAll(() => server?.stop());

  it("a transcription server error is retried, then the note completes", async () => {
    stt.set({ failFirst: 1 });
    const api = client(server.url, server.key);
    const id = await uploadRecording(api, recording, "mp3");
    const note = await waitForStatus(api, id);
    expect(note.status, note.processingError).toBe("completed");
    const [job] = await dbRows(
      server,
      "SELECT attempts, status FROM jobs WHERE idempotency_key = ?",
      `process-note:${id}`,
    );
    expect(job).toEqual({ attempts: 2, status: "succeeded" });
    await expectSound(server, id);
  });

  it("a summarizer that keeps failing ends recorded-not-summarized, transcript kept", async () => {
    const api = client(server.url, server.key);
    llm.set({ failFirst: 1_000_000 });
    try {
      const id = await uploadRecording(api, recording, "mp3");
      const note = await waitForStatus(api, id, ["recorded-not-summarized"], 30_000);
      expect(note.processingError).toMatch(/^Summarizing failed: .*500/);
      expect(note.transcripts.length).toBeGreaterThan(0);
      expect(note.summary).toBe("");
      // Reprocessing once the model is back completes it.
      llm.set({ failFirst: 0 });
      const again = await api("POST", `/v1/notes/${id}/reprocess`);
      expect(again.status).toBe(200);
      expect(["postprocessing", "transcript-processing"]).toContain(again.body.note.status);
      const done = await waitForStatus(api, id, ["completed"]);
      expect(done.processingError).toBeNull();
      await expectSound(server, id);
    } finally {
      llm.set({ failFirst: 0 });
    }
  });

  it("a completed status is never stored without its note.completed event", async () => {
    // The database refuses the event once, as if the worker died between the two
    // writes: the status must roll back with it, and the retried job settles both.
    const api = client(server.url, server.key);
    const hookUrl = "https://hooks.example.com/notula-faults";
    expect((await api("POST", "/v1/integrations/automation/webhook", { hookUrl })).status).toBe(200);
    const postgres = process.env.NOTULA_TEST_BACKEND === "postgres";
    const refuse = postgres
      ? [
          `CREATE FUNCTION refuse_completed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
             IF NEW.type = 'note.completed' THEN RAISE EXCEPTION 'the event store is down'; END IF; RETURN NEW; END $$`,
          "CREATE TRIGGER refuse_completed BEFORE INSERT ON webhook_events FOR EACH ROW EXECUTE FUNCTION refuse_completed()",
        ]
      : [
          `CREATE TRIGGER refuse_completed BEFORE INSERT ON webhook_events WHEN NEW.type = 'note.completed' BEGIN SELECT RAISE(ABORT, 'the event store is down'); END`,
        ];
    const allow = postgres
      ? ["DROP TRIGGER refuse_completed ON webhook_events", "DROP FUNCTION refuse_completed()"]
      : ["DROP TRIGGER refuse_completed"];
    for (const sql of refuse) await dbRows(server, sql);
    let id: string;
    try {
      id = await uploadRecording(api, recording, "mp3");
      const failed = async () =>
        (
          await dbRows(
            server,
            "SELECT last_error FROM jobs WHERE idempotency_key = ? AND last_error IS NOT NULL",
            `process-note:${id}`,
          )
        ).length > 0;
      const deadline = Date.now() + 30_000;
      while (!(await failed())) {
        if (Date.now() > deadline) throw new Error("the job never hit the refused event");
        await new Promise((r) => setTimeout(r, 50));
      }
      const [job] = await dbRows(server, "SELECT last_error FROM jobs WHERE idempotency_key = ?", `process-note:${id}`);
      expect(job.last_error).toMatch(/the event store is down/);
      // The failed statement's values (the note, transcript and all) stay out of job records.
      expect(job.last_error).not.toMatch(/params|transcripts|evt_/);
      const note = (await api("GET", `/v1/notes/${id}`)).body.note;
      expect(note.status).not.toBe("completed");
    } finally {
      for (const sql of allow) await dbRows(server, sql);
    }
    const done = await waitForStatus(api, id, ["completed"]);
    expect(done.processingError).toBeNull();
    const events = await dbRows(server, "SELECT body FROM webhook_events WHERE type = 'note.completed'");
    expect(events.filter((e) => JSON.parse(e.body).payload.note.id === id)).toHaveLength(1);
    await expectSound(server, id);
    await api("DELETE", "/v1/integrations/automation/webhook", { hookUrl });
  });

  it("reprocess is refused while processing runs, and for an unknown note", async () => {
    const api = client(server.url, server.key);
    stt.set({ delayMs: 1500 });
    try {
      const id = await uploadRecording(api, recording, "mp3");
      const busy = await api("POST", `/v1/notes/${id}/reprocess`);
      expect(busy.status).toBe(409);
      await waitForStatus(api, id);
    } finally {
      stt.set({ delayMs: 0 });
    }
    expect((await api("POST", "/v1/notes/note_nope/reprocess")).status).toBe(404);
    const plain = await api("POST", "/v1/notes", { title: "Nothing to process" });
    expect((await api("POST", `/v1/notes/${plain.body.note.id}/reprocess`)).status).toBe(400);
  });
});

describe("configuration errors end processing at once with a clear message", () => {
  // No engine that can work: the recording waits for one (engine-wait.test.ts follows it on).
  it("the openai engine without a URL", async () => {
    const server = await startServer({ args: ["--no-rate-limit", "--stt-engine", "openai"] });
    try {
      const api = client(server.url, server.key);
      const id = await uploadRecording(api, recording, "mp3");
      const note = await waitForStatus(api, id);
      expect(note.status).toBe("recorded-not-summarized");
      expect(note.processingError).toMatch(/^Waiting for a speech-to-text engine; .*NOTULA_STT_URL/);
      // The note says so from inside its job; the job is marked done once it returns.
      const job = await until("the job to be done", async () => {
        const [row] = await dbRows(
          server,
          "SELECT attempts, status FROM jobs WHERE idempotency_key = ?",
          `process-note:${id}`,
        );
        return row && !/queued|running/.test(row.status) ? row : null;
      });
      // Tried once, not retried with backoff: nothing changes until the configuration does.
      expect(job.attempts).toBe(1);
    } finally {
      await server.stop();
    }
  });

  it("a wrong API key for the transcription server", async () => {
    const guarded = await startTranscriptionServer({ apiKey: "right" });
    const server = await startServer({
      args: ["--no-rate-limit", "--stt-url", guarded.url],
      env: { NOTULA_STT_API_KEY: "wrong" },
    });
    try {
      const api = client(server.url, server.key);
      const id = await uploadRecording(api, recording, "mp3");
      const note = await waitForStatus(api, id);
      expect(note.status).toBe("recorded-not-summarized");
      expect(note.processingError).toMatch(/refused the request \(401\)/);
      expect(note.processingError).not.toContain("wrong");
    } finally {
      await server.stop();
      await guarded.close();
    }
  });

  it("ffmpeg missing from the PATH", async () => {
    const server = await startServerProcess({
      args: ["--no-rate-limit", "--stt-url", stt.url],
      env: { PATH: "/nonexistent" },
    });
    try {
      const api = client(server.url, server.key);
      const id = await uploadRecording(api, recording, "mp3");
      const note = await waitForStatus(api, id);
      expect(note.status).toBe("recorded-not-summarized");
      expect(note.processingError).toMatch(
        /ffmpeg was not found on PATH; install it \(Debian: apt-get install ffmpeg\)/,
      );
    } finally {
      await server.stop();
    }
  });

  it("a file ffmpeg cannot decode", async () => {
    const server = await startServer({ args: ["--no-rate-limit", "--stt-engine", "sphinx"] });
    try {
      const api = client(server.url, server.key);
      const u = await api("POST", "/v1/notes/from-audio/generate-upload-url", { fileExtension: "mp3", duration: 5 });
      // An MP3's ID3 header, then nothing an MP3 decoder can read: accepted as a
      // recording by its first bytes, refused by ffmpeg.
      const body = Buffer.concat([
        Buffer.from("ID3\x03\x00\x00\x00\x00\x00\x00", "latin1"),
        Buffer.from("this is not audio at all"),
      ]);
      expect(
        (await fetch(u.body.presignedUrl, { method: "PUT", body, headers: { "content-type": "audio/mpeg" } })).status,
      ).toBe(200);
      const id = (await api("POST", "/v1/notes/from-audio", { audioUrl: u.body.audioUrl })).body.noteId;
      const note = await waitForStatus(api, id);
      expect(note.status).toBe("recorded-not-summarized");
      expect(note.processingError).toMatch(/Transcription failed: ffmpeg could not decode/);
      // What ffmpeg said, without where the server keeps its files.
      expect(note.processingError).not.toContain(server.dataDir);
      expect(note.processingError).not.toMatch(/\/[\w.-]+\/[\w.-]+/);
    } finally {
      await server.stop();
    }
  });
});

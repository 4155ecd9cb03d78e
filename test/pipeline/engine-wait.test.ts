// Out of the box: a recording made before any speech-to-text engine is usable is kept
// and waits (never failed for good), the pages that matter say so, an admin sets up the
// local engine from the web app (model download with progress and a verified checksum,
// the workspace switched to it), `notula serve` offers the same at a terminal, and the
// waiting recordings are transcribed once an engine appears.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convert, speak } from "../helpers/audio.js";
import { uploadRecording, waitForStatus } from "../helpers/flow.js";
import { client, type Client } from "../helpers/http.js";
import { BIN, startServer, startServerProcess, storeQuery, tempDir } from "../helpers/server.js";
import { startTranscriptionServer, type VendorServer } from "../helpers/vendors.js";
import { openTerminal } from "../helpers/tmux.js";
import { until } from "../helpers/until.js";
import { startModelHost } from "../helpers/model-host.js";
import { adminBrowser as browser, type SetupState } from "../helpers/admin-browser.js";

const work = tempDir("notula-engine-");
let recording: string;
let stt: VendorServer;

beforeAll(async () => {
  recording = convert(speak(work, "The budget review moved to Thursday. Maria will send the slides."), "mp3");
  stt = await startTranscriptionServer();
});
afterAll(async () => {
  await stt?.close();
});

/** A server where no engine is usable: the whisper engine is asked for and no model exists. */
const noEngine = (env: Record<string, string> = {}) =>
  startServer({ args: ["--no-rate-limit", "--stt-engine", "whisper", "--allow-private-ai-urls"], env });

/** The setup's state once it has finished, one way or the other. */
const finished = (a: { status(): Promise<SetupState> }) =>
  until(
    "the setup to finish",
    async () => {
      const s = await a.status();
      return s.phase === "done" || s.phase === "failed" ? s : null;
    },
    30_000,
  );

async function waiting(api: Client, id: string) {
  const note = await waitForStatus(api, id);
  expect(note.status).toBe("recorded-not-summarized");
  expect(note.processingError).toMatch(/^Waiting for a speech-to-text engine; the recording is kept/);
  return note;
}

describe("a recording made before any engine is usable", () => {
  it("waits with a clear reason, is not retried while nothing changed, and is transcribed once an admin sets a server", async () => {
    const server = await noEngine();
    try {
      const api = client(server.url, server.key);
      const id = await uploadRecording(api, recording, "mp3");
      const note = await waiting(api, id);
      expect(note.processingError).toMatch(/No whisper model is installed/);
      // Its processing ended normally (nothing to retry), and a look at the workspace is queued.
      const [job] = await storeQuery(
        server.dataDir,
        "SELECT attempts, status FROM jobs WHERE idempotency_key = ?",
        `process-note:${id}`,
      );
      expect(job.attempts).toBe(1);
      expect(job.status).not.toBe("failed");
      const ws = (await api("GET", "/v1/me")).body.workspace.id;
      const watch = await storeQuery(
        server.dataDir,
        "SELECT status FROM jobs WHERE idempotency_key = ?",
        `engine-watch:${ws}`,
      );
      expect(watch.map((w) => w.status)).toEqual(["queued"]);

      // A change that does not make an engine usable leaves it waiting, untouched.
      expect((await api("PATCH", "/v1/ai-config", { transcription: { language: "en" } })).status).toBe(200);
      const still = (await api("GET", `/v1/notes/${id}`)).body.note;
      expect(still.status).toBe("recorded-not-summarized");
      expect(still.updatedAt).toBe(note.updatedAt);

      // An engine appears: the recording is transcribed and the note completed, by itself.
      expect((await api("PATCH", "/v1/ai-config", { transcription: { engine: "openai", url: stt.url } })).status).toBe(
        200,
      );
      const done = await waitForStatus(api, id, ["completed"], 60_000);
      expect(done.processingError).toBeNull();
      expect(done.transcripts.map((s: { text: string }) => s.text).join(" ")).toMatch(/budget review/i);
      const [row] = await storeQuery(server.dataDir, "SELECT awaiting_engine_since AS w FROM notes WHERE id = ?", id);
      expect(row.w).toBeNull();
    } finally {
      await server.stop();
    }
  }, 90_000);
});

describe("the web app", () => {
  it("tells an admin on the new-note and waiting-note pages and offers the setup; a member is told whom to ask", async () => {
    const server = await noEngine();
    try {
      const a = await browser(server, "admin");
      const id = await uploadRecording(a.api, recording, "mp3");
      await waiting(a.api, id);
      for (const p of ["/notes/new", `/notes/${id}`]) {
        const { html } = await a.page(p);
        expect(html).toContain("No whisper model is installed");
        expect(html).toMatch(/<form method="post" action="\/settings\/speech\/setup"/);
        expect(html).toContain("Set up local speech-to-text (base.en, about 142 MB)");
      }
      expect((await a.page(`/notes/${id}`)).html).toContain("This recording waits for a speech-to-text engine.");

      const m = await browser(server, "member");
      const { html } = await m.page("/notes/new");
      expect(html).toContain("Ask an admin of the workspace to set up speech-to-text.");
      expect(html).not.toContain("No whisper model is installed");
      expect(html).not.toContain('action="/settings/speech/setup"');
      // The setup and its page are for admins.
      expect((await m.post("/settings/speech/setup", { model: "base.en" })).status).toBe(403);
      expect((await m.page("/settings/speech")).status).toBe(403);
    } finally {
      await server.stop();
    }
  });

  it("sets up the local engine with a progress bar and a verified checksum, switches the workspace to it, and tries the waiting recording again", async () => {
    const models = await startModelHost();
    const server = await noEngine({ NOTULA_MODELS_URL: models.url });
    try {
      const a = await browser(server, "admin");
      const id = await uploadRecording(a.api, recording, "mp3");
      await waiting(a.api, id);

      expect((await a.post("/settings/speech/setup", { model: "nonsense" })).status).toBe(400);
      const started = await a.post("/settings/speech/setup", { model: "tiny.en" });
      expect(started.status).toBe(303);
      expect(started.headers.get("location")).toBe("/settings/speech");
      // While it downloads, the page shows a progress bar, and the status says how far it is.
      const during = await until("the download to be under way", async () => {
        const s = await a.status();
        return s.phase === "downloading" && s.total ? s : null;
      });
      expect(during).toMatchObject({ model: "tiny.en", total: models.body.length });
      expect(during.received).toBeLessThan(models.body.length);
      expect((await a.page("/settings/speech")).html).toMatch(/<progress id="speech-progress"/);
      const done = await finished(a);
      expect(done).toMatchObject({ phase: "done", error: null });
      expect(fs.readFileSync(path.join(server.dataDir, "models", "ggml-tiny.en.bin")).equals(models.body)).toBe(true);
      expect((await a.api("GET", "/v1/ai-config")).body.aiConfig.transcription.engine).toBe("whisper");
      expect((await a.page("/settings/speech")).html).toContain("The local engine is set up with tiny.en");

      // The waiting recording was tried again with it. The file served here is no real
      // whisper model, so the engine refuses it, and the recording waits once more, now
      // saying why: the note was tried, not forgotten.
      await until(
        "the recording to be tried with the new engine",
        async () => {
          const n = (await a.api("GET", `/v1/notes/${id}`)).body.note;
          return n.status === "recorded-not-summarized" && /not a whisper\.cpp model/.test(n.processingError);
        },
        30_000,
      );
    } finally {
      await server.stop();
      await models.close();
    }
  }, 90_000);

  it("a download whose checksum does not match fails clearly and leaves no file", async () => {
    const models = await startModelHost(512 * 1024, { wrongChecksum: true });
    const server = await noEngine({ NOTULA_MODELS_URL: models.url });
    try {
      const a = await browser(server, "admin");
      expect((await a.post("/settings/speech/setup", { model: "base.en" })).status).toBe(303);
      const done = await finished(a);
      expect(done.phase).toBe("failed");
      expect(done.error).toMatch(/Checksum mismatch for ggml-base\.en\.bin/);
      expect(fs.readdirSync(path.join(server.dataDir, "models"))).toEqual([]);
      expect((await a.page("/settings/speech")).html).toContain("Setting up the local engine failed");
      // Nothing was switched.
      expect((await a.api("GET", "/v1/ai-config")).body.aiConfig.transcription.engine).toBeNull();
    } finally {
      await server.stop();
      await models.close();
    }
  });
});

describe("the whisper engine", () => {
  it("comes with notula for this platform, and refuses a file that is not a whisper model by name", async () => {
    const { whisperBindingPath } = await import("../../src/ai/transcription/whisper-binding.js");
    const { createWhisperHost } = await import("../../src/ai/transcription/whisper-host.js");
    expect(whisperBindingPath()).toContain(path.join("node_modules", "@napi-rs", "whisper"));
    const dir = tempDir("notula-binding-");
    const junk = path.join(dir, "ggml-base.en.bin");
    fs.writeFileSync(junk, "not a model");
    const host = createWhisperHost();
    try {
      await expect(host.describe(junk)).rejects.toThrow(
        /ggml-base\.en\.bin is not a whisper\.cpp model the engine can load/,
      );
    } finally {
      await host.close();
    }
  });
});

describe("notula serve at a terminal", () => {
  it("offers to set up the local engine when none is usable, shows the download and then serves", async () => {
    const models = await startModelHost(2 * 1024 * 1024);
    const dataDir = tempDir("notula-serve-offer-");
    const t = openTerminal(
      `${process.execPath} ${BIN} serve --port 0 --data-dir ${dataDir} --stt-engine whisper --no-rate-limit`,
      { NOTULA_MODELS_URL: models.url },
    );
    try {
      await t.waitFor("No speech-to-text engine is usable");
      expect(t.screen()).toContain("Set up the local engine now? (download the base.en model, about 142 MB)");
      t.press("Enter");
      await t.waitFor(/Speech-to-text is set up/, 30_000);
      expect(fs.readFileSync(path.join(dataDir, "models", "ggml-base.en.bin")).equals(models.body)).toBe(true);
      await t.waitFor(/listening on http/i, 30_000);
    } finally {
      t.press("C-c");
      t.close();
      await models.close();
    }
  }, 90_000);

  it("starts at once where nobody can answer (no terminal)", async () => {
    const server = await startServerProcess({ args: ["--no-rate-limit", "--stt-engine", "whisper"] });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

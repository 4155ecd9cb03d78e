// A watched folder (`notula serve --watch-dir`): a file still being written is left until
// it stops growing; a transcript becomes a note, with the recording beside it attached;
// a recording alone is transcribed; a file that cannot be read goes to failed/ with the
// reason; a file imported before is skipped; every outcome is a line of the folder's log.
// The looks are driven one by one (no clock), then a real server watches on its own.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { client, type Client } from "../helpers/http.js";
import { startServer, storeQuery, tempDir, type InProcessTestServer } from "../helpers/server.js";
import { convert, speak } from "../helpers/audio.js";
import { until } from "../helpers/until.js";
import { createFolderWatch, LOG_FILE } from "../../src/pipeline/watch-folder.js";
import { createLogger } from "../../src/core/logger.js";

vi.setConfig({ testTimeout: 120_000 });

let server: InProcessTestServer;
let api: Client;
beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
});
afterAll(async () => {
  await server?.stop();
});

const watcher = (dir: string, user?: string) =>
  createFolderWatch(
    {
      services: server.runtime.services,
      repos: server.runtime.repos,
      logger: createLogger({ level: "silent" }),
      now: server.runtime.now,
    },
    { dir, user },
  );
const VTT = "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\n<v Ana>The launch moves to March.\n\n";
const MORE = "00:00:03.000 --> 00:00:06.000\n<v Ben>Then the budget waits too.\n";
const log = (dir: string) => fs.readFileSync(path.join(dir, LOG_FILE), "utf8");
const entries = (dir: string) => fs.readdirSync(dir).sort();

describe("a watched folder, look by look", () => {
  it("leaves a file while it grows, then makes a note of all of it, once", async () => {
    const dir = tempDir("notula-watch-");
    const w = watcher(dir);
    fs.writeFileSync(path.join(dir, "Launch.vtt"), VTT);
    expect(await w.scan()).toEqual([]); // first seen
    fs.appendFileSync(path.join(dir, "Launch.vtt"), MORE);
    expect(await w.scan()).toEqual([]); // still growing
    const [made] = await w.scan();
    expect(made).toMatchObject({ file: "Launch.vtt", status: "imported" });
    const note = (await api("GET", `/v1/notes/${(made as { noteId: string }).noteId}`)).body.note;
    expect(note.transcripts.map((t: { speaker: string; text: string }) => `${t.speaker}: ${t.text}`)).toEqual([
      "Ana: The launch moves to March.",
      "Ben: Then the budget waits too.",
    ]);
    expect(entries(dir)).toEqual(["imported", LOG_FILE]);
    expect(entries(path.join(dir, "imported"))).toEqual(["Launch.vtt"]);
    expect(log(dir)).toMatch(new RegExp(`^\\S+Z imported Launch\\.vtt as ${note.id}\\n$`));

    // The same bytes again, under another name: skipped, naming the first note.
    fs.copyFileSync(path.join(dir, "imported", "Launch.vtt"), path.join(dir, "Launch again.vtt"));
    await w.scan();
    expect(await w.scan()).toEqual([
      expect.objectContaining({ file: "Launch again.vtt", status: "skipped", noteId: note.id }),
    ]);
    expect(entries(path.join(dir, "imported"))).toEqual(["Launch again.vtt", "Launch.vtt"]);
  });

  it("attaches the recording beside a transcript, transcribes a recording alone, and sets aside what it cannot read", async () => {
    const dir = tempDir("notula-watch-");
    const audio = tempDir("notula-watch-audio-");
    fs.renameSync(convert(speak(audio, "The launch moves to March."), "m4a"), path.join(dir, "Sync.m4a"));
    fs.writeFileSync(path.join(dir, "Sync.vtt"), VTT);
    fs.renameSync(convert(speak(audio, "Nobody wrote this down."), "mp3"), path.join(dir, "Voice memo.mp3"));
    fs.writeFileSync(path.join(dir, "broken.srt"), "not subtitles at all\n");
    fs.writeFileSync(path.join(dir, "notes.pdf"), "%PDF-1.4"); // not a kind it reads: left alone
    const w = watcher(dir);
    await w.scan();
    const outcomes = Object.fromEntries((await w.scan()).map((o) => [o.file, o]));
    expect(Object.keys(outcomes).sort()).toEqual(["Sync.vtt", "Voice memo.mp3", "broken.srt"]);
    expect(outcomes["Sync.vtt"], JSON.stringify(outcomes["Sync.vtt"])).toMatchObject({
      status: "imported",
      recording: "Sync.m4a",
    });
    expect(outcomes["Voice memo.mp3"]).toMatchObject({ status: "imported" });
    expect(outcomes["broken.srt"]).toMatchObject({ status: "failed" });
    expect((outcomes["broken.srt"] as { reason: string }).reason).toMatch(/^broken\.srt cannot be read as SRT/);

    const synced = (outcomes["Sync.vtt"] as { noteId: string }).noteId;
    const [row] = await storeQuery(
      server.dataDir,
      "SELECT u.status FROM notes n JOIN audio_uploads u ON u.id = n.upload_id WHERE n.id = ?",
      synced,
    );
    expect(row).toEqual({ status: "used" });
    // The memo is a recording's note, transcribed like an upload.
    const memo = (await api("GET", `/v1/notes/${(outcomes["Voice memo.mp3"] as { noteId: string }).noteId}`)).body.note;
    expect(memo.title).toBe("Voice memo");
    expect(["postprocessing", "transcript-processing", "summarizing", "completed"]).toContain(memo.status);

    expect(entries(dir)).toEqual(["failed", "imported", "notes.pdf", LOG_FILE]);
    expect(entries(path.join(dir, "imported"))).toEqual(["Sync.m4a", "Sync.vtt", "Voice memo.mp3"]);
    expect(entries(path.join(dir, "failed"))).toEqual(["broken.srt"]);
    expect(log(dir)).toContain(`imported Sync.vtt with Sync.m4a as ${synced}`);
    expect(log(dir)).toMatch(/failed broken\.srt: broken\.srt cannot be read as SRT/);
  });

  it("leaves the files where they are while its person is not a member", async () => {
    const dir = tempDir("notula-watch-");
    fs.writeFileSync(path.join(dir, "Launch.vtt"), VTT + MORE + "\n");
    const w = watcher(dir, "nobody@acme.example");
    await w.scan();
    expect(await w.scan()).toEqual([]);
    expect(entries(dir)).toEqual(["Launch.vtt"]);
  });
});

describe("notula serve --watch-dir", () => {
  it("watches on its own, as the person named, and says what became of each file", async () => {
    const dir = tempDir("notula-watch-serve-");
    const me = (await api("GET", "/v1/me")).body.user;
    const watching = await startServer({
      args: ["--watch-dir", dir, "--watch-user", me.email],
      env: { NOTULA_WATCH_EVERY_SEC: "1" },
    });
    try {
      const own = client(watching.url, watching.key);
      fs.writeFileSync(path.join(dir, "Dropped.vtt"), VTT);
      const [note] = await until(
        "the dropped file's note",
        async () => {
          const items = (await own("GET", "/v1/notes")).body.items as { id: string; title: string }[];
          const dropped = items.filter((n) => n.title === "Dropped");
          return dropped.length ? dropped : null;
        },
        60_000,
      );
      await until("the log line", () => fs.existsSync(path.join(dir, LOG_FILE)) && log(dir).includes(note.id));
      expect(entries(path.join(dir, "imported"))).toEqual(["Dropped.vtt"]);
    } finally {
      await watching.stop();
    }
  });
});

// Live recordings over HTTP: a note from its first second, audio arriving as numbered
// pieces of one stream (here Ogg/Opus, cut by bytes as MediaRecorder's timeslices and
// an encoder's pipe are), in any order, repeated, with gaps; the pieces joined into one
// recording that is transcribed like an upload. And the refusals: the wrong note, the
// wrong workspace, too big, not audio, after the end.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bursts, oggPieces, speak } from "../helpers/audio.js";
import { waitForStatus } from "../helpers/flow.js";
import { client, type Client } from "../helpers/http.js";
import { admin, startServer, startServerProcess, tempDir, type TestServer } from "../helpers/server.js";
import { startTranscriptionServer, wordOverlap, type VendorServer } from "../helpers/vendors.js";
import { until } from "../helpers/until.js";
import { connectMcp } from "../helpers/mcp.js";

const SPOKEN =
  "Please schedule a meeting with the design team for Tuesday afternoon. Our quarterly revenue grew by twelve percent compared to last year.";
const work = tempDir("notula-recording-");

describe("live recordings", () => {
  let server: TestServer;
  let api: Client;
  let speech: string;
  const put = (noteId: string, seq: number | string, body: Buffer, key = server.key, durationMs?: number) =>
    fetch(`${server.url}/v1/recordings/${noteId}/pieces/${seq}${durationMs ? `?durationMs=${durationMs}` : ""}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${key}`, "content-type": "audio/ogg" },
      body,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any })); // eslint-disable-line @typescript-eslint/no-explicit-any

  beforeAll(async () => {
    speech = speak(work, SPOKEN);
    server = await startServer({
      args: ["--no-rate-limit", "--stt-engine", "sphinx"],
      env: { NOTULA_RECORDING_QUIET_SEC: "5" },
    });
    api = client(server.url, server.key);
  });
  afterAll(() => server?.stop());

  it("is a note from its first second, takes pieces in any order and repeated, and becomes one transcribed recording", async () => {
    const started = await api("POST", "/v1/recordings", { format: "ogg", title: "Design sync" });
    expect(started.status, started.text).toBe(200);
    const noteId = started.body.note.id;
    expect(started.body.note.status).toBe("idle");
    expect(started.body.recording).toMatchObject({ noteId, status: "waiting", format: "ogg", pieces: 0, missing: [] });
    expect((await api("GET", `/v1/notes/${noteId}`)).body.note.status).toBe("idle");

    const { pieces, durationMs } = oggPieces(speech, 6);
    // 0, 2, 1 (late), 2 again (a retry), 5 (a gap at 3 and 4, for now)
    const first = await put(noteId, 0, pieces[0], server.key, durationMs);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ seq: 0, bytes: pieces[0].length, duplicate: false });
    expect((await api("GET", `/v1/notes/${noteId}`)).body.note.status).toBe("recording");
    expect((await put(noteId, 2, pieces[2], server.key, durationMs)).status).toBe(200);
    expect((await put(noteId, 1, pieces[1], server.key, durationMs)).status).toBe(200);
    const again = await put(noteId, 2, pieces[2], server.key, durationMs);
    expect(again).toMatchObject({ status: 200, body: { seq: 2, duplicate: true } });
    const other = await put(noteId, 2, pieces[3]);
    expect(other.status).toBe(409);
    expect(other.body.error.message).toMatch(/other bytes/);
    expect((await put(noteId, 5, pieces[5], server.key, durationMs)).status).toBe(200);
    const status = await api("GET", `/v1/recordings/${noteId}`);
    expect(status.body.recording).toMatchObject({ status: "recording", pieces: 4, missing: [3, 4] });
    expect(status.body.recording.bytes).toBe(pieces[0].length + pieces[1].length + pieces[2].length + pieces[5].length);
    // The gap fills.
    expect((await put(noteId, 4, pieces[4], server.key, durationMs)).status).toBe(200);
    expect((await put(noteId, 3, pieces[3], server.key, durationMs)).status).toBe(200);
    expect((await api("GET", `/v1/recordings/${noteId}`)).body.recording.missing).toEqual([]);

    const stopped = await api("POST", `/v1/recordings/${noteId}/stop`);
    expect(stopped.status, stopped.text).toBe(200);
    expect(["postprocessing", "transcript-processing", "summarizing", "completed"]).toContain(stopped.body.note.status);
    // No piece after the end; the recording is no longer under way.
    const late = await put(noteId, 6, pieces[5]);
    expect(late.status).toBe(409);
    expect(late.body.error.message).toMatch(/not being recorded/);
    expect((await api("GET", `/v1/recordings/${noteId}`)).status).toBe(404);

    const note = await waitForStatus(api, noteId);
    expect(note.status, note.processingError).toBe("completed");
    const heard = note.transcripts.map((s: { text: string }) => s.text).join(" ");
    expect(wordOverlap(SPOKEN, heard), heard).toBeGreaterThanOrEqual(0.6);
    expect(note.processingWarnings).toBeNull();
    // One continuous recording, exactly the pieces in order; the pieces themselves are gone.
    const dir = path.join(server.dataDir, "audio");
    const files = fs.readdirSync(dir, { recursive: true }).map(String);
    const joined = files.filter((f) => /rec_[^/]+\.ogg$/.test(f));
    expect(joined).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, joined[0]))).toEqual(Buffer.concat(pieces));
    expect(files.filter((f) => /\.p\d{5}$/.test(f))).toEqual([]);
  });

  it("stores a browser's WebM, which says neither its length nor where to seek, with both", async () => {
    // Written to a pipe, as MediaRecorder writes it: no duration in the header, no cues.
    const stream = execFileSync(
      "ffmpeg",
      ["-v", "error", "-i", speech, "-ac", "1", "-c:a", "libopus", "-b:a", "24k", "-f", "webm", "pipe:1"],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const probe = (file: string) =>
      execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file])
        .toString()
        .trim();
    const raw = path.join(work, "stream.webm");
    fs.writeFileSync(raw, stream);
    expect(probe(raw)).toBe("N/A");
    const spoken = Number(probe(speech));

    const { body } = await api("POST", "/v1/recordings", { format: "webm", title: "Browser recording" });
    const noteId = body.note.id;
    const size = Math.ceil(stream.length / 3);
    for (let seq = 0; seq < 3; seq++) {
      const r = await fetch(`${server.url}/v1/recordings/${noteId}/pieces/${seq}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${server.key}`, "content-type": "audio/webm" },
        body: stream.subarray(seq * size, (seq + 1) * size),
      });
      expect(r.status, await r.text()).toBe(200);
    }
    expect((await api("POST", `/v1/recordings/${noteId}/stop`)).status).toBe(200);
    const note = await waitForStatus(api, noteId);
    expect(note.status, note.processingError).toBe("completed");

    const dir = path.join(server.dataDir, "audio");
    const stored = fs
      .readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => /rec_[^/]+\.webm$/.test(f));
    expect(stored).toHaveLength(1);
    const file = path.join(dir, stored[0]);
    // Its length is in the file now, and so is the index a player seeks with.
    expect(Math.abs(Number(probe(file)) - spoken)).toBeLessThan(0.5);
    // The same audio, not re-encoded: the packets are the ones sent.
    const packets = (f: string) =>
      execFileSync("ffprobe", [
        "-v",
        "error",
        "-select_streams",
        "a",
        "-count_packets",
        "-show_entries",
        "stream=nb_read_packets",
        "-of",
        "csv=p=0",
        f,
      ])
        .toString()
        .trim();
    expect(packets(file)).toBe(packets(raw));
  });

  it("names the seconds that never arrived when a gap is left at the end", async () => {
    const { body } = await api("POST", "/v1/recordings", { format: "ogg" });
    const noteId = body.note.id;
    const { pieces, durationMs } = oggPieces(speech, 4);
    for (const seq of [0, 1, 3]) expect((await put(noteId, seq, pieces[seq], server.key, durationMs)).status).toBe(200);
    expect((await api("POST", `/v1/recordings/${noteId}/stop`)).status).toBe(200);
    const note = await waitForStatus(api, noteId);
    expect(note.processingWarnings?.[0]).toMatch(/piece 2 \(about 0:0\d–0:\d\d\)/);
  });

  it("refuses what is not a piece of this recording: not audio, too big, another's note, another workspace, a text note", async () => {
    const { body } = await api("POST", "/v1/recordings", { format: "webm" });
    const noteId = body.note.id;
    const notAudio = await put(noteId, 0, Buffer.from("%PDF-1.7 not a recording"));
    expect(notAudio.status).toBe(415);
    expect(notAudio.body.error.message).toMatch(/webm stream .* a PDF document/);
    const ogg = await put(noteId, 0, fs.readFileSync(speech)); // a WAV, where WebM was announced
    expect(ogg.status).toBe(415);
    const tooBig = await put(noteId, 1, Buffer.alloc(4 * 1024 * 1024 + 1));
    expect(tooBig.status).toBe(413);
    expect((await put(noteId, 1, Buffer.alloc(0))).status).toBe(400);
    expect((await put(noteId, -1, Buffer.from("x"))).status).toBe(400);
    expect((await put(noteId, "x", Buffer.from("x"))).status).toBe(400);
    expect((await put(noteId, 100000, Buffer.from("x"))).status).toBe(400);
    // Nothing was kept: the recording still waits for its first piece.
    expect((await api("GET", `/v1/recordings/${noteId}`)).body.recording).toMatchObject({
      status: "waiting",
      pieces: 0,
    });

    const text = await api("POST", "/v1/notes", { title: "Typed" });
    expect((await put(text.body.note.id, 0, Buffer.from("OggS"))).status).toBe(409);
    expect((await put("note_missing", 0, Buffer.from("OggS"))).status).toBe(404);

    const other = await admin(server.dataDir, ["workspaces", "create", "--name", "Other", "--plan", "enterprise"]);
    expect((await put(noteId, 1, Buffer.from("OggS"), other.key)).status).toBe(404);
    expect((await client(server.url, other.key)("POST", `/v1/recordings/${noteId}/stop`)).status).toBe(404);

    // A member who sees the note does not send its audio, nor stop it: only the person recording.
    const me = await api("GET", "/v1/me");
    const member = await admin(server.dataDir, [
      "users",
      "create",
      "--workspace",
      me.body.workspace.id,
      "--email",
      "member@x.org",
      "--name",
      "Member",
    ]);
    const memberKey = (
      await admin(server.dataDir, [
        "keys",
        "create",
        "--name",
        "m",
        "--workspace",
        me.body.workspace.id,
        "--user",
        member.user.id,
      ])
    ).key;
    expect((await client(server.url, memberKey)("GET", `/v1/notes/${noteId}`)).status).toBe(200);
    expect((await put(noteId, 0, Buffer.from("OggS"), memberKey)).status).toBe(403);
    expect((await client(server.url, memberKey)("POST", `/v1/recordings/${noteId}/stop`)).status).toBe(403);
    expect((await api("POST", `/v1/recordings/${noteId}/stop`)).status).toBe(200);
  });

  it("is stopped by the server when no piece comes for the quiet period, with what it received", async () => {
    const { body } = await api("POST", "/v1/recordings", { format: "ogg" });
    const noteId = body.note.id;
    const { pieces, durationMs } = oggPieces(speech, 1);
    expect((await put(noteId, 0, pieces[0], server.key, durationMs)).status).toBe(200);
    // The recorder vanishes (a closed tab, a killed process): the server stops it after 5 s.
    const note = await until(
      "the quiet recording to be stopped and processed",
      async () => {
        const n = (await api("GET", `/v1/notes/${noteId}`)).body.note;
        return n.status === "completed" || n.status === "recorded-not-summarized" ? n : null;
      },
      60_000,
      250,
    );
    expect(note.status, note.processingError).toBe("completed");
    expect(wordOverlap(SPOKEN, note.transcripts.map((s: { text: string }) => s.text).join(" "))).toBeGreaterThan(0.5);
  });

  it("ends a recording that got no audio with a note that says so", async () => {
    const { body } = await api("POST", "/v1/recordings", { format: "ogg" });
    const stopped = await api("POST", `/v1/recordings/${body.note.id}/stop`);
    expect(stopped.body.note).toMatchObject({
      status: "recorded-not-summarized",
      processingError: "The recording received no audio.",
    });
  });

  it("is for the Enterprise plan, with the notes scope, as notes from audio are", async () => {
    const pro = await admin(server.dataDir, ["workspaces", "create", "--name", "Pro", "--plan", "pro"]);
    const refused = await client(server.url, pro.key)("POST", "/v1/recordings", { format: "ogg" });
    expect(refused.status).toBe(403);
    const bad = await api("POST", "/v1/recordings", { format: "flac" });
    expect(bad.status).toBe(400);
  });
});

describe("transcribed while it is recorded", () => {
  let server: TestServer;
  let stt: VendorServer;
  let releaseFirst: () => void = () => {};
  let releaseRest: () => void = () => {};
  beforeAll(async () => {
    // The stand-in answers each window with its length: what was transcribed, and how often, adds up.
    stt = await startTranscriptionServer({ echo: true });
    server = await startServer({ args: ["--no-rate-limit", "--stt-url", stt.url] });
  });
  afterAll(async () => {
    releaseFirst();
    releaseRest();
    await server?.stop();
    await stt?.close();
  });

  it("grows the transcript while the note is recording, and leaves only the tail to transcribe after it stops", async () => {
    const api = client(server.url, server.key);
    const audio = await bursts(work, 90, "wav");
    const { pieces, durationMs } = oggPieces(audio, 18);
    const { body } = await api("POST", "/v1/recordings", { format: "ogg", title: "Long call" });
    const noteId = body.note.id;
    const put = (seq: number) =>
      fetch(`${server.url}/v1/recordings/${noteId}/pieces/${seq}?durationMs=${durationMs}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${server.key}`, "content-type": "audio/ogg" },
        body: pieces[seq],
      });
    for (let seq = 0; seq < pieces.length; seq++) expect((await put(seq)).status).toBe(200);
    // The meeting goes on: its transcript is there to read while the note is still recording.
    const live = await until(
      "a transcript while recording",
      async () => {
        const n = (await api("GET", `/v1/notes/${noteId}`)).body.note;
        return n.status === "recording" && n.transcripts.length ? n : null;
      },
      60_000,
      200,
    );
    expect(live.transcripts[0].text).toMatch(/window of \d+\.\d seconds/);
    // An assistant asking over MCP meanwhile gets the same: the note, recording, and what was said so far.
    const { client: mcp } = await connectMcp(server.url, server.key);
    const got = (await mcp.callTool({ name: "svc_get_note", arguments: { id: noteId } })).structuredContent as {
      note: { status: string; transcripts: unknown[] };
    };
    expect(got.note.status).toBe("recording");
    expect(got.note.transcripts.length).toBeGreaterThan(0);
    await mcp.close();
    const liveCalls = stt.calls.length;
    expect(liveCalls).toBeGreaterThan(0);

    expect((await api("POST", `/v1/recordings/${noteId}/stop`)).status).toBe(200);
    const note = await waitForStatus(api, noteId);
    expect(note.status, note.processingError).toBe("completed");
    // Every second was transcribed once: the live windows and the tail add up to the recording.
    const seconds = stt.calls.length
      ? note.transcripts.reduce(
          (sum: number, s: { text: string }) => sum + Number(/([\d.]+) seconds/.exec(s.text)![1]),
          0,
        )
      : 0;
    // No second twice: at most the recording. Every second of sound: a window's quiet
    // edges past half a second are not sent, and here 2 s of every 10 are quiet, so how
    // much is left out depends on where the windows fell (on how fast the machine
    // transcribed while the pieces came), never more than the quiet.
    expect(seconds).toBeLessThanOrEqual(note.totalDurationSec + 1);
    expect(seconds).toBeGreaterThanOrEqual(note.totalDurationSec * 0.8);
    expect(stt.calls.length).toBeGreaterThan(liveCalls);
    const starts = note.transcripts.map((s: { startTimestamp: string }) => s.startTimestamp);
    expect(starts).toEqual([...starts].sort());
    expect(new Set(starts).size).toBe(starts.length);
    expect(note.processingInfo.liveSec).toBeUndefined();
    expect(note.processingInfo.liveFinal).toBeUndefined();
  });

  it("writes each window as it is heard when it is behind, rather than all of them at the end", async () => {
    // Forty seconds arrive at once, as after a network cut: the first piece last, so that
    // nothing is read before all of it is there, and four windows are to catch up on.
    const api = client(server.url, server.key);
    const { pieces, durationMs } = oggPieces(await bursts(work, 40, "wav"), 4);
    const first = new Promise<void>((r) => (releaseFirst = r));
    stt.set({ hold: first });
    const { body } = await api("POST", "/v1/recordings", { format: "ogg", title: "Catching up" });
    const noteId = body.note.id;
    for (let seq = pieces.length - 1; seq >= 0; seq--) {
      const r = await fetch(`${server.url}/v1/recordings/${noteId}/pieces/${seq}?durationMs=${durationMs}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${server.key}`, "content-type": "audio/ogg" },
        body: pieces[seq],
      });
      expect(r.status).toBe(200);
    }
    await until("the first window at the engine", () => stt.held.length === 1, 120_000, 50);
    // The next request waits at the engine: by then the first window is on the note.
    stt.set({ hold: new Promise<void>((r) => (releaseRest = r)) });
    releaseFirst();
    await until("the next request at the engine", () => stt.held.length === 2, 120_000, 50);
    const note = (await api("GET", `/v1/notes/${noteId}`)).body.note;
    expect(note.status).toBe("recording");
    expect(note.transcripts.map((s: { text: string }) => s.text)).toEqual([
      expect.stringMatching(/window of \d+\.\d seconds/),
    ]);
    releaseRest();
    stt.set({ hold: undefined });
    expect((await api("POST", `/v1/recordings/${noteId}/stop`)).status).toBe(200);
    expect((await waitForStatus(api, noteId)).status).toBe("completed");
  }, 300_000);
});

describe("several meetings recorded at once", () => {
  let server: TestServer;
  let stt: VendorServer;
  let release: () => void = () => {};
  beforeAll(async () => {
    stt = await startTranscriptionServer({ echo: true });
    // Its decoders start late, as on a machine busy with other work: a pass that read the
    // decoder's output at its first still moment read nothing, and a meeting whose pieces
    // had all come waited for no further one.
    const slowBin = path.join(work, "slow-ffmpeg");
    fs.mkdirSync(slowBin, { recursive: true });
    const ffmpeg = execFileSync("sh", ["-c", "command -v ffmpeg"], { encoding: "utf8" }).trim();
    fs.writeFileSync(path.join(slowBin, "ffmpeg"), `#!/bin/sh\nsleep 2\nexec ${ffmpeg} "$@"\n`, { mode: 0o755 });
    server = await startServerProcess({
      args: ["--no-rate-limit", "--stt-url", stt.url],
      env: { PATH: `${slowBin}:${process.env.PATH}` },
    });
  });
  afterAll(async () => {
    release();
    await server?.stop();
    await stt?.close();
  });

  it("transcribes a third meeting while two others' windows are still being transcribed, with decoders slow to start", async () => {
    // A recording's live job keeps its place while its pieces come and its windows are
    // transcribed; with the engine holding every window, each meeting that reaches the
    // engine holds a place. A third meeting whose window never arrives waited for one.
    stt.set({ hold: new Promise<void>((r) => (release = r)) });
    const api = client(server.url, server.key);
    const audio = await bursts(work, 10, "wav");
    const { pieces, durationMs } = oggPieces(audio, 2);
    const names = ["Aoife Brennan", "Tomasz Wojcik", "Priya Raman"];
    const ids: string[] = [];
    for (const name of names) {
      const { body } = await api("POST", "/v1/recordings", { format: "ogg", title: name, participants: [{ name }] });
      ids.push(body.note.id);
      for (let seq = 0; seq < pieces.length; seq++) {
        const r = await fetch(`${server.url}/v1/recordings/${body.note.id}/pieces/${seq}?durationMs=${durationMs}`, {
          method: "PUT",
          headers: { authorization: `Bearer ${server.key}`, "content-type": "audio/ogg" },
          body: pieces[seq],
        });
        expect(r.status).toBe(200);
      }
    }
    // Every meeting's words are with the engine at once: its prompt names the meeting's participant.
    await until(
      "a window of each of the three meetings at the engine at once",
      () => names.every((n) => stt.held.some((f) => String(f.prompt ?? "").includes(n))),
      120_000,
      100,
    );
    release();
    for (const id of ids) expect((await api("POST", `/v1/recordings/${id}/stop`)).status).toBe(200);
    for (const id of ids) expect((await waitForStatus(api, id)).status).toBe("completed");
  }, 300_000);
});

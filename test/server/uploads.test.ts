// Presigned uploads and notes from audio: every refusal leaves nothing behind.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convert, fileBytes, tone, wavBytes } from "../helpers/audio.js";
import { client, errorCode, type Client } from "../helpers/http.js";
import { admin, startServer, startServerProcess, tempDir, type TestServer, storeQuery } from "../helpers/server.js";
import { until } from "../helpers/until.js";

let server: TestServer;
let api: Client;
let audio: Buffer;
const work = tempDir("notula-audio-");

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit", "--max-upload-bytes", "2000000"] });
  api = client(server.url, server.key);
  audio = fs.readFileSync(convert(tone(work, 3), "mp3"));
});
afterAll(() => server?.stop());

const storedFiles = (dir = server.dataDir) =>
  fs.existsSync(path.join(dir, "audio"))
    ? fs.readdirSync(path.join(dir, "audio"), { recursive: true }).filter((f) => String(f).includes("."))
    : [];

async function uploadUrl(fileExtension = "mp3", duration = 3, c: Client = api) {
  const r = await c("POST", "/v1/notes/from-audio/generate-upload-url", { fileExtension, duration });
  expect(r.status, r.text).toBe(200);
  return r.body as { presignedUrl: string; audioUrl: string; contentType: string };
}

const put = (url: string, body: Buffer | string, contentType: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: "PUT", body, headers: { "content-type": contentType, ...headers } }).then(async (r) => ({
    status: r.status,
    headers: r.headers,
    body: await r.json(),
  }));

describe("generate-upload-url", () => {
  it("returns a presigned URL on this server, an opaque audioUrl and the content type", async () => {
    for (const [ext, type] of [
      ["m4a", "audio/mp4"],
      ["mp3", "audio/mpeg"],
      ["wav", "audio/wav"],
      ["aac", "audio/aac"],
    ]) {
      const u = await uploadUrl(ext);
      expect(u.contentType).toBe(type);
      expect(u.presignedUrl.startsWith(`${server.url}/uploads/`)).toBe(true);
      expect(new URL(u.presignedUrl).searchParams.get("sig")).toBeTruthy();
      expect(u.audioUrl).toMatch(/^notula:\/\/audio\/upl_/);
    }
  });

  it("enforces the duration limit at its edge and the extension list", async () => {
    const ok = await api("POST", "/v1/notes/from-audio/generate-upload-url", { fileExtension: "wav", duration: 14400 });
    expect(ok.status).toBe(200);
    for (const body of [
      { fileExtension: "wav", duration: 14401 },
      { fileExtension: "wav", duration: 14400.5 },
      { fileExtension: "wav", duration: 0 },
      { fileExtension: "wav", duration: -5 },
      { fileExtension: "wav", duration: "60" },
      { fileExtension: "wav" },
      { fileExtension: "txt", duration: 60 },
      { duration: 60 },
    ]) {
      const r = await api("POST", "/v1/notes/from-audio/generate-upload-url", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(errorCode(r)).toBe("bad_request");
    }
    const tooLong = await api("POST", "/v1/notes/from-audio/generate-upload-url", {
      fileExtension: "wav",
      duration: 14401,
    });
    expect(tooLong.body.error.message).toMatch(/14400/);
  });

  it("is Enterprise only, and needs the notes scope", async () => {
    const free = await admin(server.dataDir, ["workspaces", "create", "--name", "Free", "--plan", "free"]);
    const pro = await admin(server.dataDir, ["workspaces", "create", "--name", "Pro", "--plan", "pro"]);
    for (const key of [free.key, pro.key]) {
      for (const [p, body] of [
        ["/v1/notes/from-audio/generate-upload-url", { fileExtension: "mp3", duration: 3 }],
        ["/v1/notes/from-audio", { audioUrl: "notula://audio/upl_x" }],
      ] as const) {
        const r = await client(server.url, key)("POST", p, body);
        expect(r.status).toBe(403);
        expect(r.body.error.message).toMatch(/Enterprise/);
      }
    }
    const foldersOnly = await admin(server.dataDir, ["keys", "create", "--name", "f", "--scopes", "folders"]);
    const r = await client(server.url, foldersOnly.key)("POST", "/v1/notes/from-audio/generate-upload-url", {
      fileExtension: "mp3",
      duration: 3,
    });
    expect(r.status).toBe(403);
  });
});

describe("PUT presignedUrl", () => {
  it("stores the file once; a replay is refused", async () => {
    const u = await uploadUrl();
    const first = await put(u.presignedUrl, audio, u.contentType);
    expect(first).toMatchObject({ status: 200, body: { status: "uploaded", bytes: audio.length } });
    const id = u.audioUrl.split("/").pop()!;
    const stored = storedFiles().find((f) => String(f).includes(id))!;
    expect(fs.readFileSync(path.join(server.dataDir, "audio", String(stored)))).toEqual(audio);
    const replay = await put(u.presignedUrl, audio, u.contentType);
    expect(replay.status).toBe(409);
  });

  it("refuses a wrong Content-Type, a tampered URL and an expired one, storing nothing", async () => {
    const before = storedFiles().length;
    const u = await uploadUrl();
    expect((await put(u.presignedUrl, audio, "audio/wav")).status).toBe(415);
    expect((await put(u.presignedUrl, audio, "application/octet-stream")).status).toBe(415);
    const url = new URL(u.presignedUrl);
    const tampered = [
      u.presignedUrl.replace(/sig=.{4}/, "sig=AAAA"),
      u.presignedUrl.replace(/expires=\d+/, `expires=${Number(url.searchParams.get("expires")) + 3600}`),
      u.presignedUrl.replace(/sig=[^&]+/, ""),
      // Another upload id: its first character changed (to one it is not already).
      u.presignedUrl.replace(/\/uploads\/upl_(.)/, (_, c: string) => `/uploads/upl_${c === "x" ? "y" : "x"}`),
    ];
    for (const t of tampered) {
      const r = await put(t, audio, u.contentType);
      expect(r.status, t).toBe(403);
      expect((r.body as any).error.code).toBe("forbidden");
    }
    // Ten minutes pass: moved in the database rather than waited for.
    await storeQuery(
      server.dataDir,
      "UPDATE audio_uploads SET expires_at = ? WHERE id = ?",
      Date.now() - 1,
      u.audioUrl.split("/").pop(),
    );
    const expired = await put(u.presignedUrl, audio, u.contentType);
    expect(expired.status).toBe(403);
    expect((expired.body as any).error.message).toMatch(/expired/);
    expect(storedFiles().length).toBe(before);
  });

  it("refuses a file that is not a recording with 415 naming what it is; the URL works afterwards", async () => {
    const before = storedFiles().length;
    const u = await uploadUrl();
    const cases: [Buffer, RegExp][] = [
      [
        Buffer.from("%PDF-1.7\n%âãÏÓ\n1 0 obj"),
        /^The file is a PDF document, not a recording: notula reads m4a, mp3, wav/,
      ],
      [Buffer.from("Minutes of the meeting\nAna: hello"), /^The file is text, not a recording/],
      [
        Buffer.concat([Buffer.from([0x89]), Buffer.from("PNG\r\n\x1a\n"), Buffer.alloc(100)]),
        /^The file is a PNG image/,
      ],
      [Buffer.alloc(0), /^The file is an empty file/],
    ];
    for (const [body, message] of cases) {
      const r = await put(u.presignedUrl, body, u.contentType);
      expect(r.status, message.source).toBe(415);
      expect((r.body as any).error).toMatchObject({ code: "unsupported_media_type" });
      expect((r.body as any).error.message).toMatch(message);
    }
    // Sent in pieces of a few bytes, the signature is still read whole.
    const wav = fileBytes(tone(tempDir(), 1));
    const status = await rawPut(u.presignedUrl, u.contentType, wav, { chunked: true, headInPieces: true });
    expect(status).toBe(200);
    expect(storedFiles().length).toBe(before + 1);
  });

  it("refuses a body over the size limit, with or without Content-Length, and keeps nothing", async () => {
    const before = storedFiles().length;
    const big = wavBytes(2_000_001, 1);
    const u = await uploadUrl();
    const declared = await put(u.presignedUrl, big, u.contentType);
    expect(declared.status).toBe(413);
    // Chunked: the limit is found while streaming.
    const status = await rawPut(u.presignedUrl, u.contentType, big, { chunked: true });
    expect(status).toBe(413);
    expect(storedFiles().length).toBe(before);
    expect(fs.readdirSync(path.join(server.dataDir, "audio", ".incoming"))).toEqual([]);
    // At the limit exactly, it is accepted.
    const exact = await put(u.presignedUrl, wavBytes(2_000_000, 1), u.contentType);
    expect(exact.status).toBe(200);
  });

  it("an interrupted upload leaves nothing, and the URL still works afterwards", async () => {
    const before = storedFiles().length;
    const u = await uploadUrl();
    await rawPut(u.presignedUrl, u.contentType, audio, { cutAfter: Math.floor(audio.length / 2) });
    // The server notices the cut when the socket closes: wait for its clean-up, then nothing may be left.
    await until(
      "the cut upload's partial file to go",
      () => fs.readdirSync(path.join(server.dataDir, "audio", ".incoming")).length === 0,
    );
    expect(storedFiles().length).toBe(before);
    const retry = await put(u.presignedUrl, audio, u.contentType);
    expect(retry.status).toBe(200);
  });

  it("a retry sent the moment a connection is cut succeeds; one beside a live upload is told when to retry", async () => {
    const u = await uploadUrl();
    const url = new URL(u.presignedUrl);
    const first = net.connect(Number(url.port), url.hostname);
    first.on("error", () => undefined);
    first.write(
      `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: ${u.contentType}\r\nContent-Length: ${audio.length}\r\n\r\n`,
    );
    first.write(audio.subarray(0, Math.floor(audio.length / 2)));
    await until(
      "the first upload's partial file",
      () => fs.readdirSync(path.join(server.dataDir, "audio", ".incoming")).length > 0,
    );
    // The first is still sending: a second is refused, with when to try again.
    const beside = await put(u.presignedUrl, audio, u.contentType);
    expect(beside.status, JSON.stringify(beside.body)).toBe(409);
    expect(Number(beside.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((beside.body as { error: { message: string } }).error.message).toMatch(/receiving an upload at this moment/);
    // The network drops and the client sends again at once, before the server has cleaned up.
    first.destroy();
    const retry = await put(u.presignedUrl, audio, u.contentType);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
  });
});

describe("POST /v1/notes/from-audio", () => {
  it("creates a note in postprocessing with the title, folder and calendar event given", async () => {
    const me = (await api("GET", "/v1/me")).body;
    const folder = (await api("POST", "/v1/folders", { name: "Calls", ownerUserId: me.user.id })).body.folder;
    const u = await uploadUrl();
    await put(u.presignedUrl, audio, u.contentType);
    const r = await api("POST", "/v1/notes/from-audio", {
      audioUrl: u.audioUrl,
      title: "Customer call",
      calendarEventId: "evt_42",
      folderId: folder.id,
    });
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body)).toEqual(["noteId"]);
    const note = (await api("GET", `/v1/notes/${r.body.noteId}`)).body.note;
    expect(note).toMatchObject({ title: "Customer call", tags: [{ id: folder.id, name: "Calls" }] });
    expect(note.calendarEvent.id).toBe("evt_42");
    expect([
      "postprocessing",
      "transcript-processing",
      "summarizing",
      "completed",
      "recorded-not-summarized",
    ]).toContain(note.status);
    const again = await api("POST", "/v1/notes/from-audio", { audioUrl: u.audioUrl });
    expect(again.status).toBe(409);
  });

  it("400 before the file is uploaded, 404 for another workspace's or an unknown audioUrl", async () => {
    const u = await uploadUrl();
    const early = await api("POST", "/v1/notes/from-audio", { audioUrl: u.audioUrl });
    expect(early.status).toBe(400);
    expect(early.body.error.message).toMatch(/not been uploaded/);
    await put(u.presignedUrl, audio, u.contentType);
    const other = await admin(server.dataDir, ["workspaces", "create", "--name", "Other"]);
    const foreign = await client(server.url, other.key)("POST", "/v1/notes/from-audio", { audioUrl: u.audioUrl });
    expect(foreign.status).toBe(404);
    for (const audioUrl of ["notula://audio/upl_nope", "https://example.com/a.mp3", ""]) {
      const r = await api("POST", "/v1/notes/from-audio", { audioUrl });
      expect([400, 404]).toContain(r.status);
    }
    const badFolder = await api("POST", "/v1/notes/from-audio", { audioUrl: u.audioUrl, folderId: "fld_nope" });
    expect(badFolder.status).toBe(400);
    // The refused attempts did not use up the upload.
    expect((await api("POST", "/v1/notes/from-audio", { audioUrl: u.audioUrl })).status).toBe(200);
  });
});

describe("kill -9 during an upload", () => {
  it("leaves no partial file; after a restart the same URL accepts the upload", async () => {
    const s = await startServerProcess({ args: ["--no-rate-limit"] });
    try {
      const c = client(s.url, s.key);
      const u = await uploadUrl("mp3", 3, c);
      const url = new URL(u.presignedUrl);
      const socket = net.connect(Number(url.port), url.hostname);
      socket.on("error", () => {});
      socket.write(
        `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: ${u.contentType}\r\nContent-Length: ${audio.length}\r\n\r\n`,
      );
      socket.write(audio.subarray(0, 1000));
      await until("the upload to be under way", () => {
        const dir = path.join(s.dataDir, "audio", ".incoming");
        return fs.existsSync(dir) && fs.readdirSync(dir).length === 1;
      });
      await s.kill9();
      socket.destroy();
      await s.restart();
      expect(fs.readdirSync(path.join(s.dataDir, "audio", ".incoming"))).toEqual([]);
      const after = await put(u.presignedUrl.replace(url.origin, s.url), audio, u.contentType);
      expect(after.status).toBe(200);
    } finally {
      await s.stop();
    }
  });
});

/**
 * A PUT over a raw socket: chunked (the first 12 bytes three at a time, 20 ms apart,
 * with `headInPieces`), or cut off after some bytes. Resolves with the status, or 0 if none came.
 */
function rawPut(
  presigned: string,
  contentType: string,
  body: Buffer,
  opts: { chunked?: boolean; cutAfter?: number; headInPieces?: boolean },
): Promise<number> {
  const url = new URL(presigned);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let got = "";
    const finish = (status: number) => {
      socket.destroy();
      resolve(status);
    };
    socket.on("data", (d) => {
      got += d;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(got);
      if (m) finish(Number(m[1]));
    });
    socket.on("error", () => finish(0));
    const length = opts.chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${body.length}`;
    socket.write(
      `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: ${contentType}\r\n${length}\r\n\r\n`,
    );
    if (opts.cutAfter !== undefined) {
      socket.write(body.subarray(0, opts.cutAfter), () => setTimeout(() => finish(0), 100));
      return;
    }
    // Paced, and stopping once answered (see the JSON body-limit test for why).
    socket.setNoDelay(true);
    void (async () => {
      const head = opts.headInPieces ? 12 : 0;
      for (let i = 0; i < head; i += 3) {
        const part = body.subarray(i, i + 3);
        await new Promise<void>((r) =>
          socket.write(Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from("\r\n")]), () =>
            r(),
          ),
        );
        await new Promise((r) => setTimeout(r, 20));
      }
      for (let i = head; i < body.length && !/^HTTP/.test(got); i += 65536) {
        const part = body.subarray(i, i + 65536);
        await new Promise<void>((r) =>
          socket.write(Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from("\r\n")]), () =>
            r(),
          ),
        );
        await new Promise((r) => setTimeout(r, 2));
      }
      if (!/^HTTP/.test(got)) socket.write("0\r\n\r\n");
    })();
    setTimeout(() => finish(0), 10_000);
  });
}

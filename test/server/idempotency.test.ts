// Idempotency-Key on the note-creating POSTs (POST /v1/notes, POST /v1/notes/from-audio),
// as Stripe's: a repeat within 24 hours answers the first note; another body under the key
// is refused by name; racing repeats make one note; a failed request gives its key back;
// keys are each person's own. On the injected clock, on both databases.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convert, tone } from "../helpers/audio.js";
import { client, errorCode, type Client } from "../helpers/http.js";
import { addMember } from "../helpers/members.js";
import { startServer, tempDir, type TestServer } from "../helpers/server.js";
import { IDEMPOTENCY_KEY_TTL_MS } from "../../src/services/idempotency.js";

let server: TestServer;
let api: Client;
let audio: Buffer;
let now = Date.parse("2026-06-01T09:00:00Z");

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"], clock: () => now });
  api = client(server.url, server.key);
  audio = fs.readFileSync(convert(tone(tempDir(), 2), "mp3"));
});
afterAll(() => server?.stop());

const withKey = (key: string) => ({ "idempotency-key": key });
const titled = async (title: string) =>
  (await api("GET", `/v1/notes?search=${encodeURIComponent(title)}&limit=50`)).body.items.filter(
    (n: { title: string }) => n.title === title,
  );

/** A new upload URL with the test's recording PUT to it: what a client's retry does. */
async function uploaded(): Promise<string> {
  const u = await api("POST", "/v1/notes/from-audio/generate-upload-url", { fileExtension: "mp3", duration: 2 });
  expect(u.status, u.text).toBe(200);
  const put = await fetch(u.body.presignedUrl, {
    method: "PUT",
    body: audio,
    headers: { "content-type": u.body.contentType },
  });
  expect(put.status).toBe(200);
  return u.body.audioUrl;
}

describe("Idempotency-Key on POST /v1/notes", () => {
  it("answers a repeat with the first note, marked as replayed, and makes one note", async () => {
    const body = { title: "Kept once", userWrittenNote: "One note only." };
    const first = await api("POST", "/v1/notes", body, withKey("text-1"));
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await api("POST", "/v1/notes", body, withKey("text-1"));
    expect(again.status, again.text).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.note.id).toBe(first.body.note.id);
    expect(again.body.note.title).toBe("Kept once");
    expect(await titled("Kept once")).toHaveLength(1);
    // The same body without a key, or with another, is a new note.
    expect((await api("POST", "/v1/notes", body)).status).toBe(200);
    expect((await api("POST", "/v1/notes", body, withKey("text-2"))).status).toBe(200);
    expect(await titled("Kept once")).toHaveLength(3);
  });

  it("refuses the key with another body, naming the first note", async () => {
    const first = await api("POST", "/v1/notes", { title: "First body" }, withKey("text-3"));
    const other = await api("POST", "/v1/notes", { title: "Another body" }, withKey("text-3"));
    expect(other.status, other.text).toBe(409);
    expect(errorCode(other)).toBe("conflict");
    expect(other.body.error.message).toMatch(/Idempotency-Key.*another body/);
    expect(other.body.error.noteId).toBe(first.body.note.id);
    expect(await titled("Another body")).toHaveLength(0);
    // The same fields in another order are the same body.
    const a = await api("POST", "/v1/notes", { title: "Ordered", userWrittenNote: "x" }, withKey("text-4"));
    const b = await api("POST", "/v1/notes", { userWrittenNote: "x", title: "Ordered" }, withKey("text-4"));
    expect(b.status, b.text).toBe(200);
    expect(b.body.note.id).toBe(a.body.note.id);
  });

  it("makes one note of repeats sent at once", async () => {
    const body = { title: "Raced" };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => api("POST", "/v1/notes", body, withKey("text-race"))),
    );
    // Each is the one note, or told to come back for it in a moment.
    const made = answers.filter((a) => a.status === 200).map((a) => a.body.note.id);
    expect(new Set(made).size).toBe(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status, a.text).toBe(409);
      expect(a.headers.get("retry-after")).toBe("1");
    }
    expect(await titled("Raced")).toHaveLength(1);
    const later = await api("POST", "/v1/notes", body, withKey("text-race"));
    expect(later.body.note.id).toBe(made[0]);
  });

  it("gives the key back when the request fails, so that a retry makes the note", async () => {
    const bad = await api("POST", "/v1/notes", { title: "Filed", folderIds: ["fld_nosuch"] }, withKey("text-5"));
    expect(bad.status).toBe(400);
    const me = (await api("GET", "/v1/me")).body;
    const folder = (await api("POST", "/v1/folders", { name: "Idem", ownerUserId: me.user.id })).body.folder;
    // The same key with the body corrected: the failed request left nothing behind it.
    const good = await api("POST", "/v1/notes", { title: "Filed", folderIds: [folder.id] }, withKey("text-5"));
    expect(good.status, good.text).toBe(200);
  });

  it("is each person's own: another member's same key makes their own note", async () => {
    const other = await addMember(server, { name: "idem-other" });
    const mine = await api("POST", "/v1/notes", { title: "Mine or theirs" }, withKey("shared-key"));
    const theirs = await client(server.url, other.key)(
      "POST",
      "/v1/notes",
      { title: "Mine or theirs" },
      withKey("shared-key"),
    );
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.body.note.id).not.toBe(mine.body.note.id);
  });

  it("lasts 24 hours: a day later the key makes a new note", async () => {
    const body = { title: "A day apart" };
    const first = await api("POST", "/v1/notes", body, withKey("text-day"));
    now += IDEMPOTENCY_KEY_TTL_MS - 1;
    expect((await api("POST", "/v1/notes", body, withKey("text-day"))).body.note.id).toBe(first.body.note.id);
    now += 1;
    const next = await api("POST", "/v1/notes", body, withKey("text-day"));
    expect(next.status).toBe(200);
    expect(next.body.note.id).not.toBe(first.body.note.id);
  });

  it("takes keys of 1 to 255 printable characters, and refuses others by name", async () => {
    expect((await api("POST", "/v1/notes", { title: "Long key" }, withKey("k".repeat(255)))).status).toBe(200);
    for (const key of ["k".repeat(256), "two words", "tab\there"]) {
      const r = await api("POST", "/v1/notes", { title: "Bad key" }, withKey(key));
      expect(r.status, key).toBe(400);
      expect(r.body.error.message).toMatch(/^Idempotency-Key:/);
    }
    expect(await titled("Bad key")).toHaveLength(0);
  });
});

describe("Idempotency-Key on POST /v1/notes/from-audio", () => {
  it("a retried upload (the file sent again under a new URL) answers the first note", async () => {
    const body = { title: "Uploaded twice", participants: [{ name: "Ana" }] };
    const first = await api("POST", "/v1/notes/from-audio", { audioUrl: await uploaded(), ...body }, withKey("up-1"));
    expect(first.status, first.text).toBe(200);
    const again = await api("POST", "/v1/notes/from-audio", { audioUrl: await uploaded(), ...body }, withKey("up-1"));
    expect(again.status, again.text).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.noteId).toBe(first.body.noteId);
    expect(await titled("Uploaded twice")).toHaveLength(1);
    // Another title under the key is another request.
    const other = await api(
      "POST",
      "/v1/notes/from-audio",
      { audioUrl: await uploaded(), title: "Uploaded otherwise" },
      withKey("up-1"),
    );
    expect(other.status).toBe(409);
    expect(other.body.error.noteId).toBe(first.body.noteId);
  });

  it("a from-audio refused before its file arrived keeps nothing of the key", async () => {
    const u = await api("POST", "/v1/notes/from-audio/generate-upload-url", { fileExtension: "mp3", duration: 2 });
    const early = await api("POST", "/v1/notes/from-audio", { audioUrl: u.body.audioUrl }, withKey("up-2"));
    expect(early.status).toBe(400);
    await fetch(u.body.presignedUrl, { method: "PUT", body: audio, headers: { "content-type": u.body.contentType } });
    const made = await api("POST", "/v1/notes/from-audio", { audioUrl: u.body.audioUrl }, withKey("up-2"));
    expect(made.status, made.text).toBe(200);
  });
});

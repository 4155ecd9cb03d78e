// A workspace archive's round trip, on either database: `notula archive` on one server
// (an admin's), `notula import` of it on a fresh one, and the notes are there as they
// were (titles, dates, transcripts, summaries, folders, recordings byte for byte); a run
// again makes nothing twice; a member may not take the archive; an archive holding a
// path outside its own ("../") is refused whole, and nothing is written there.
import fs from "node:fs";
import path from "node:path";
import { createGzip } from "node:zlib";
import { pipeline } from "node:stream/promises";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { client, type Client } from "../helpers/http.js";
import { cliEnv, run, startServer, storeQuery, tempDir, type TestServer } from "../helpers/server.js";
import { addMember } from "../helpers/members.js";
import { convert, speak } from "../helpers/audio.js";
import { waitForStatus } from "../helpers/flow.js";

vi.setConfig({ testTimeout: 180_000 });

let from: TestServer;
let to: TestServer;
let apiFrom: Client;
let apiTo: Client;
const dir = tempDir("notula-archive-");
const archive = path.join(dir, "acme.tar.gz");

beforeAll(async () => {
  [from, to] = await Promise.all([
    startServer({ args: ["--no-rate-limit"] }),
    startServer({ args: ["--no-rate-limit"] }),
  ]);
  apiFrom = client(from.url, from.key);
  apiTo = client(to.url, to.key);
  const me = (await apiFrom("GET", "/v1/me")).body.user;
  const board = (await apiFrom("POST", "/v1/folders", { name: "Board", ownerUserId: me.id })).body.folder;
  await apiFrom("POST", "/v1/notes", {
    title: "Budget review",
    createdAt: "2025-05-02T09:00:00.000Z",
    folderIds: [board.id],
    userWrittenNote: "Ask finance for the Q3 numbers.",
    summary: "The budget holds.",
    enhancedNote: "## Decisions\n\n- The budget holds.",
    participants: [{ name: "Ana Lopez", email: "ana@acme.example" }],
    transcripts: [{ speaker: "Ana Lopez", text: "The budget holds.", startTimestamp: "00:01", endTimestamp: "00:03" }],
  });
  // A note with its recording, brought in the way people bring one: a recording and its transcript.
  const m4a = convert(speak(dir, "We ship the importer on Friday."), "m4a");
  fs.renameSync(m4a, path.join(dir, "Ship date.m4a"));
  fs.writeFileSync(
    path.join(dir, "Ship date.vtt"),
    "WEBVTT\n\n00:00:00.000 --> 00:00:02.500\n<v Ben>We ship the importer on Friday.\n",
  );
  const made = await run(["import", path.join(dir, "Ship date.vtt"), "--json"], { env: cliEnv(from) });
  expect(made.code, made.stderr).toBe(0);
  for (const n of (await apiFrom("GET", "/v1/notes")).body.items) await waitForStatus(apiFrom, n.id);
});
afterAll(async () => {
  await Promise.all([from?.stop(), to?.stop()]);
});

type Item = { status: string; title: string | null; noteId: string | null; reason: string | null };
const importing = async (server: TestServer, file: string) => {
  const r = await run(["import", file, "--json"], { env: cliEnv(server) });
  return { code: r.code, stderr: r.stderr, items: JSON.parse(r.stdout || '{"items":[]}').items as Item[] };
};
/** A note as it reads anywhere: what a move must keep. */
const kept = (n: Record<string, any>) => ({
  title: n.title,
  createdAt: n.createdAt,
  userWrittenNote: n.userWrittenNote,
  summary: n.summary,
  enhancedNote: n.enhancedNote,
  // A line's id is its server's: the words, speakers and times move.
  transcripts: n.transcripts.map(({ id: _id, version: _v, ...line }: Record<string, unknown>) => line),
  participants: n.participants.map((p: { name: string; email: string }) => ({ name: p.name, email: p.email })),
  folders: n.tags.map((t: { name: string }) => t.name),
  totalDurationSec: n.totalDurationSec,
});
const notesOf = async (api: Client) => {
  const out = [];
  for (const { id } of (await api("GET", "/v1/notes?sortBy=title&sortOrder=asc")).body.items)
    out.push((await api("GET", `/v1/notes/${id}`)).body.note);
  return out;
};
const recordingBytes = async (server: TestServer, title: string) =>
  Number(
    (
      await storeQuery(
        server.dataDir,
        "SELECT u.bytes FROM notes n JOIN audio_uploads u ON u.id = n.upload_id WHERE n.title = ?",
        title,
      )
    )[0]?.bytes,
  );

describe("a workspace archive", () => {
  it("moves a workspace to another server whole, and makes nothing twice when run again", async () => {
    const out = await run(["archive", "--out", archive], { env: cliEnv(from) });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout.trim()).toBe(archive);

    const first = await importing(to, archive);
    expect(first.code, first.stderr).toBe(0);
    expect(first.items.map((x) => [x.title, x.status]).sort()).toEqual([
      ["Budget review", "made"],
      ["Ship date", "made"],
    ]);
    const before = (await notesOf(apiFrom)).map(kept);
    expect((await notesOf(apiTo)).map(kept)).toEqual(before);
    const bytes = await recordingBytes(from, "Ship date");
    expect(bytes).toBeGreaterThan(1000);
    expect(await recordingBytes(to, "Ship date")).toBe(bytes);
    // The folder was made on the new server, once.
    expect((await apiTo("GET", "/v1/folders")).body.folders.map((f: { name: string }) => f.name)).toEqual(["Board"]);

    const again = await importing(to, archive);
    expect(again.items.map((x) => x.status)).toEqual(["skipped", "skipped"]);
    expect((await apiTo("GET", "/v1/notes")).body.items).toHaveLength(2);
    expect((await apiTo("GET", "/v1/folders")).body.folders).toHaveLength(1);
  });

  it("is for admins", async () => {
    const member = await addMember(from, { name: "mo" });
    const r = await run(["archive", "--out", path.join(dir, "mine.tar.gz")], {
      env: { ...cliEnv(from), NOTULA_API_KEY: member.key },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Only an admin of the workspace can take its archive.");
    expect(fs.existsSync(path.join(dir, "mine.tar.gz"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "mine.tar.gz.part"))).toBe(false);
  });

  it("refuses an archive with a path outside its own, whole, and writes nothing there", async () => {
    const evil = path.join(dir, "evil.tar.gz");
    const pack = tar.pack();
    pack.entry(
      { name: "notula-archive.json" },
      JSON.stringify({
        format: "notula-archive",
        version: 1,
        exportedAt: "2026-01-01T00:00:00Z",
        workspace: { id: "ws", name: "x" },
        folders: [],
        notes: [],
      }),
    );
    pack.entry({ name: "../../escaped.txt" }, "outside");
    pack.finalize();
    await pipeline(pack, createGzip(), fs.createWriteStream(evil));
    const before = (await apiTo("GET", "/v1/notes")).body.items.length;
    const r = await importing(to, evil);
    expect(r.code).toBe(1);
    expect(r.items).toEqual([
      expect.objectContaining({
        status: "failed",
        reason: 'evil.tar.gz holds "../../escaped.txt", which no notula archive holds: refused whole.',
      }),
    ]);
    expect(fs.existsSync(path.join(dir, "..", "escaped.txt"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "..", "..", "escaped.txt"))).toBe(false);
    expect((await apiTo("GET", "/v1/notes")).body.items).toHaveLength(before);
  });
});

// Meetings brought in from other tools' files with `notula import`, against a real
// server: WebVTT with voices, SRT with names, Otter's text export and a markdown note
// with front matter each become a note with its date, title, speakers and timings,
// found by search at once; a run again makes nothing twice; --dry-run makes nothing; a
// file that cannot be read fails alone, and the run says so in its exit code.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { client, type Client } from "../helpers/http.js";
import { cliEnv, run, startServer, storeQuery, tempDir, type TestServer } from "../helpers/server.js";
import { convert, speak } from "../helpers/audio.js";
import { waitForStatus, linesOf } from "../helpers/flow.js";
import { readImport } from "../../src/shared/import/transcript-files.js";

vi.setConfig({ testTimeout: 120_000 });

let server: TestServer;
let api: Client;
const dir = tempDir("notula-import-");
const WHEN = new Date("2025-03-14T09:30:00Z");

const files: Record<string, string> = {
  "zoom/Lisbon sync.vtt":
    "WEBVTT\n\n1\n00:00:01.000 --> 00:00:04.500\n<v Ana Lopez>We open the Lisbon office in March.</v>\n\n2\n00:00:04.500 --> 00:00:09.000\n<v Ben>The budget is two hundred thousand euros &amp; rising.\n",
  "teams/pricing_call.srt":
    "1\n00:00:02,000 --> 00:00:05,000\nIvo: The starter plan goes up to twenty dollars.\n\n2\n01:00:01,000 --> 01:00:04,000\nJo: Agreed, from April.\n",
  "otter/Hiring.txt":
    "Cyrus  0:03\nWe interviewed three designers this week.\nPriya was the strongest.\n\nDee  1:02:05\nLet us make her an offer by Friday.\n",
  "notes/offsite.md":
    "---\ntitle: Team offsite planning\ndate: 2025-02-01T10:00:00Z\nparticipants:\n  - Kai <kai@acme.example>\n  - Lu\n---\n# Offsite\n\n- Lodge near Innsbruck booked for thirty people\n",
  "broken.srt": "this is not a subtitle file at all\n",
};

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    fs.utimesSync(file, WHEN, WHEN);
  }
});
afterAll(async () => {
  await server?.stop();
});

const importing = (...args: string[]) => run(["import", ...args, "--json"], { env: cliEnv(server) });
type Item = { file: string; status: string; kind: string | null; noteId: string | null; reason: string | null };
const byName = (items: Item[]) => Object.fromEntries(items.map((x) => [path.relative(dir, x.file), x]));

describe("notula import", () => {
  it("shows what it would make with --dry-run, and makes nothing", async () => {
    const r = await importing(dir, "--dry-run");
    const items = byName(JSON.parse(r.stdout).items);
    expect(items["zoom/Lisbon sync.vtt"]).toMatchObject({ status: "would make", kind: "vtt" });
    expect(items["otter/Hiring.txt"]).toMatchObject({ status: "would make", kind: "otter" });
    expect(items["broken.srt"]).toMatchObject({ status: "failed" });
    expect(items["broken.srt"].reason).toMatch(/^broken\.srt cannot be read as SRT \(expected timestamp at row 1/);
    expect((await api("GET", "/v1/notes")).body.items).toEqual([]);
  });

  it("makes a note of each file, with its date, speakers and timings, searchable at once; a file it cannot read fails alone", async () => {
    const r = await importing(dir);
    expect(r.code, r.stderr).toBe(1);
    const items = byName(JSON.parse(r.stdout).items);
    expect(Object.keys(items).sort()).toEqual([
      "broken.srt",
      "notes/offsite.md",
      "otter/Hiring.txt",
      "teams/pricing_call.srt",
      "zoom/Lisbon sync.vtt",
    ]);
    expect(items["broken.srt"].status).toBe("failed");
    const note = async (name: string) => (await api("GET", `/v1/notes/${items[name].noteId}`)).body.note;

    const zoom = await note("zoom/Lisbon sync.vtt");
    expect(zoom).toMatchObject({ title: "Lisbon sync", createdAt: WHEN.toISOString() });
    expect(linesOf(zoom.transcripts)).toEqual([
      {
        speaker: "Ana Lopez",
        text: "We open the Lisbon office in March.",
        startTimestamp: "00:01",
        endTimestamp: "00:05",
      },
      {
        speaker: "Ben",
        text: "The budget is two hundred thousand euros & rising.",
        startTimestamp: "00:05",
        endTimestamp: "00:09",
      },
    ]);
    expect(zoom.participants.map((p: { name: string }) => p.name)).toEqual(["Ana Lopez", "Ben"]);

    const teams = await note("teams/pricing_call.srt");
    expect(teams.title).toBe("pricing call");
    expect(
      teams.transcripts.map((s: { speaker: string; startTimestamp: string }) => [s.speaker, s.startTimestamp]),
    ).toEqual([
      ["Ivo", "00:02"],
      ["Jo", "60:01"],
    ]);
    const otter = await note("otter/Hiring.txt");
    expect(linesOf(otter.transcripts)).toEqual([
      expect.objectContaining({
        speaker: "Cyrus",
        text: "We interviewed three designers this week. Priya was the strongest.",
        startTimestamp: "00:03",
      }),
      expect.objectContaining({ speaker: "Dee", startTimestamp: "62:05" }),
    ]);
    const offsite = await note("notes/offsite.md");
    expect(offsite).toMatchObject({ title: "Team offsite planning", createdAt: "2025-02-01T10:00:00.000Z" });
    expect(offsite.userWrittenNote).toBe("# Offsite\n\n- Lodge near Innsbruck booked for thirty people");
    expect(offsite.participants.map((p: { name: string; email: string }) => [p.name, p.email])).toEqual([
      ["Kai", "kai@acme.example"],
      ["Lu", ""],
    ]);
    // Searchable at once, by what was said.
    const found = await api("GET", "/v1/search?q=Lisbon%20office%20March");
    expect(found.body.results.map((x: { note: { id: string } }) => x.note.id)).toContain(zoom.id);
  });

  it("makes nothing twice when run again, by file or by glob, and says so", async () => {
    const again = await importing(path.join(dir, "zoom"), `${dir}/**/*.{srt,txt}`);
    const items: Item[] = JSON.parse(again.stdout).items;
    const imported = items.filter((x) => !x.file.endsWith("broken.srt"));
    expect(imported.map((x) => x.status)).toEqual(["skipped", "skipped", "skipped"]);
    expect(imported[0].reason).toMatch(/^This file was imported already, as note note_\S+ \("Lisbon sync"\)\.$/);
    // The note it became the first time, from the error's noteId field.
    const notes = (await api("GET", "/v1/notes")).body.items as { id: string; title: string }[];
    expect(imported[0].noteId).toBe(notes.find((n) => n.title === "Lisbon sync")?.id);
    expect((await api("GET", "/v1/notes")).body.items).toHaveLength(4);
    // Rows on standard output (tab-separated when piped), and the summary line.
    const table = await run(["import", path.join(dir, "zoom")], { env: cliEnv(server) });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^skipped\tvtt\t\S.*Lisbon sync\.vtt\tnote_/m);
    expect(table.stderr).toContain("Made 0, skipped 1 imported before, 0 failed.");
    // The API says the same to anyone who sends the file's hash again.
    const hash = "a".repeat(64);
    expect((await api("POST", "/v1/notes", { title: "One", sourceHash: hash })).status).toBe(200);
    expect((await api("POST", "/v1/notes", { title: "Also one", sourceHash: hash })).status).toBe(409);
    const one = await api("POST", "/v1/notes", { title: "One again", sourceHash: "b".repeat(64) });
    const twice = await api("POST", "/v1/notes", { title: "Two", sourceHash: "b".repeat(64) });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toEqual({ code: "conflict", message: expect.any(String), noteId: one.body.note.id });
    expect((await api("POST", "/v1/notes", { title: "Bad", sourceHash: "xyz" })).status).toBe(400);
  });

  it("refuses a path that is not there", async () => {
    const r = await importing(path.join(dir, "nope"));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/No such file or folder/);
  });
});

describe("a recording with its transcript, and files that cannot be read", () => {
  const more = tempDir("notula-import-more-");
  const write = (name: string, data: string | Buffer) => {
    fs.writeFileSync(path.join(more, name), data);
    return path.join(more, name);
  };

  it("attaches the recording beside a transcript to its note, and keeps the transcript as given", async () => {
    const m4a = convert(speak(more, "We ship the importer on Friday."), "m4a");
    fs.renameSync(m4a, path.join(more, "Ship date.m4a"));
    const vtt = write(
      "Ship date.vtt",
      "WEBVTT\n\n00:00:00.000 --> 00:00:02.500\n<v Ana>We ship the importer on Friday.\n",
    );
    // Named on its own, the recording brings its transcript; named together, they make one note.
    const r = await importing(path.join(more, "Ship date.m4a"), "--folder", "fld_nope", "--dry-run");
    expect(JSON.parse(r.stdout).items).toMatchObject([
      { file: vtt, recording: path.join(more, "Ship date.m4a"), status: "would make", kind: "vtt" },
    ]);
    const made = await importing(vtt, path.join(more, "Ship date.m4a"));
    expect(made.code, made.stderr).toBe(0);
    const [item] = JSON.parse(made.stdout).items as Item[];
    expect(item.status).toBe("made");
    const note = await waitForStatus(api, item.noteId!);
    expect(linesOf(note.transcripts)).toEqual([
      { speaker: "Ana", text: "We ship the importer on Friday.", startTimestamp: "00:00", endTimestamp: "00:03" },
    ]);
    // The recording is the note's, whole, and was not transcribed again.
    const [row] = await storeQuery(
      server.dataDir,
      "SELECT u.status, u.bytes, u.note_id FROM notes n JOIN audio_uploads u ON u.id = n.upload_id WHERE n.id = ?",
      item.noteId,
    );
    expect(row).toEqual({
      status: "used",
      bytes: fs.statSync(path.join(more, "Ship date.m4a")).size,
      note_id: item.noteId,
    });
    expect(note.processingInfo?.transcription ?? null).toBeNull();
  });

  it("refuses a recording with no transcript, a binary file, a file too large, and reads UTF-16 and Latin-1", async () => {
    const alone = convert(speak(more, "Nothing written down."), "mp3");
    const binary = write("photo.vtt", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    const huge = path.join(more, "huge.srt");
    fs.writeFileSync(huge, "");
    fs.truncateSync(huge, 2 * 1024 ** 3); // 2 GB, sparse: refused by its size, never read.
    const utf16 = write(
      "Café review.vtt",
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from("WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nZoë: Le café est prêt.\n", "utf16le"),
      ]),
    );
    const latin1 = write("Señal.srt", Buffer.from("1\n00:00:01,000 --> 00:00:02,000\nIñaki: Mañana sí.\n", "latin1"));
    const untimed = write("untimed.srt", "1\nJust words, no timings.\n");
    const r = await importing(alone, binary, huge, utf16, latin1, untimed);
    expect(r.code).toBe(1);
    const items = Object.fromEntries((JSON.parse(r.stdout).items as Item[]).map((x) => [path.basename(x.file), x]));
    expect(items[path.basename(alone)].reason).toMatch(/has no transcript beside it .*use notula upload\.$/);
    expect(items["photo.vtt"].reason).toBe(
      "photo.vtt is a binary file (or UTF-16 without a byte-order mark), not text notula can read as a transcript or a note.",
    );
    expect(items["huge.srt"].reason).toBe("huge.srt is 2048.0 MB; a transcript or note file is at most 16.0 MB.");
    expect(items["untimed.srt"].reason).toMatch(/^untimed\.srt cannot be read as SRT \(.*row 2/);
    expect(items["Café review.vtt"].status).toBe("made");
    expect(items["Señal.srt"].status).toBe("made");
    const text = async (x: Item) => (await api("GET", `/v1/notes/${x.noteId}`)).body.note.transcripts[0];
    expect(await text(items["Café review.vtt"])).toMatchObject({ speaker: "Zoë", text: "Le café est prêt." });
    expect(await text(items["Señal.srt"])).toMatchObject({ speaker: "Iñaki", text: "Mañana sí." });
  });
});

describe("reading other tools' files", () => {
  it("takes the speaker from a cue's name when it has no voice, and leaves text without one to Speaker", () => {
    const r = readImport("x.srt", "1\n00:00:01,000 --> 00:00:02,000\nhello there\n", WHEN);
    expect(r.body.transcripts).toEqual([
      { speaker: "Speaker", text: "hello there", startTimestamp: "00:01", endTimestamp: "00:02" },
    ]);
    expect(() => readImport("empty.md", "", WHEN)).toThrow("empty.md is empty.");
    // A plain text note (not Otter's shape) is a note.
    expect(readImport("ideas.txt", "Some ideas\nfor later", WHEN)).toMatchObject({
      kind: "note",
      body: { title: "ideas", userWrittenNote: "Some ideas\nfor later" },
    });
  });

  it("reads Otter's export with the title and date lines it starts with", () => {
    const otter = [
      "Weekly product sync",
      "Tue, Nov 24, 2026 10:00 AM • 12:34",
      "",
      "Ana Lopez  0:03",
      "Let's start with the launch date.",
      "",
      "Tom Reed  1:05",
      "The launch moves to January.",
    ].join("\n");
    const r = readImport("otter-export.txt", otter, WHEN);
    expect(r.kind).toBe("otter");
    expect(r.body.title).toBe("Weekly product sync");
    const at = new Date(r.body.createdAt!);
    expect([at.getFullYear(), at.getMonth(), at.getDate(), at.getHours(), at.getMinutes()]).toEqual([
      2026, 10, 24, 10, 0,
    ]);
    expect(r.body.transcripts).toEqual([
      {
        speaker: "Ana Lopez",
        text: "Let's start with the launch date.",
        startTimestamp: "00:03",
        endTimestamp: "01:05",
      },
      { speaker: "Tom Reed", text: "The launch moves to January.", startTimestamp: "01:05", endTimestamp: "01:05" },
    ]);
    // The date line alone, and no header at all, read the same way.
    expect(readImport("x.txt", otter.split("\n").slice(1).join("\n"), WHEN).body.transcripts).toHaveLength(2);
    expect(readImport("x.txt", otter.split("\n").slice(3).join("\n"), WHEN)).toMatchObject({
      kind: "otter",
      body: { title: "x", createdAt: WHEN.toISOString() },
    });
  });
});

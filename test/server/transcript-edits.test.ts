// Correcting a transcript line by line, on both databases: a line's words and speaker
// (that line, or the lines from it on), deleting and splitting a line; ids that stay
// through corrections and versions that count them; a stale edit is 409 with the line
// as it is now, and of two edits sent at once exactly one wins; search and the
// exports see the correction at once; who may correct is who may edit the note.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, errorCode, type Client } from "../helpers/http.js";
import { addMember } from "../helpers/members.js";
import { startServer, tempDir, type TestServer } from "../helpers/server.js";
import { tone } from "../helpers/audio.js";
import { uploadRecording, waitForStatus } from "../helpers/flow.js";
import { startTranscriptionServer, type VendorServer } from "../helpers/vendors.js";

let server: TestServer;
let api: Client;

const LINES = [
  ["Sarah", "Welcome to the design review."],
  ["Speaker 2", "The new menu from Jon Snow is ready for testing."],
  ["Speaker 2", "Thank you for watching."],
  ["Speaker 2", "I will run the usability test on Friday."],
  ["Speaker 2", "The icons still need work."],
].map(([speaker, text], i) => ({
  speaker,
  text,
  startTimestamp: `00:${String(i * 10).padStart(2, "0")}`,
  endTimestamp: `00:${String(i * 10 + 8).padStart(2, "0")}`,
}));

async function makeNote(as: Client = api) {
  const r = await as("POST", "/v1/notes", {
    title: "Design review",
    transcripts: LINES,
    summary: "A review.",
    enhancedNote: "## Notes\n- review",
  });
  expect(r.status, r.text).toBe(200);
  return r.body.note as { id: string; transcripts: { id: string; version: number; speaker: string; text: string }[] };
}

const lines = async (id: string) => (await api("GET", `/v1/notes/${id}`)).body.note.transcripts as any[];

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
}, 60_000);
afterAll(() => server?.stop());

describe("correcting a transcript", () => {
  it("edits a line's words: its id stays, its version counts, and search and the exports see it at once", async () => {
    const note = await makeNote();
    const line = note.transcripts[1];
    expect(line.id).toMatch(/^seg_/);
    expect(line.version).toBe(0);
    expect(new Set(note.transcripts.map((l) => l.id)).size).toBe(LINES.length);

    const r = await api("PATCH", `/v1/notes/${note.id}/transcript/${line.id}`, {
      version: 0,
      text: "The new menu from John Snow is ready for testing.",
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.lines).toEqual([
      expect.objectContaining({ id: line.id, version: 1, text: "The new menu from John Snow is ready for testing." }),
    ]);
    const after = await lines(note.id);
    expect(after.map((l) => l.id)).toEqual(note.transcripts.map((l) => l.id));
    expect(after[1]).toMatchObject({ version: 1, speaker: "Speaker 2", startTimestamp: "00:10" });

    // Search finds the corrected word, and not the misheard one.
    const found = await api("GET", "/v1/search?q=John&mode=fulltext");
    expect(found.status, found.text).toBe(200);
    expect(JSON.stringify(found.body)).toContain(note.id);
    const old = await api("GET", "/v1/search?q=Jon&mode=fulltext");
    expect(JSON.stringify(old.body)).not.toContain(note.id);
    // So do the exports.
    const vtt = await api("GET", `/v1/notes/${note.id}/export?format=vtt`);
    expect(vtt.text).toContain("John Snow");
    expect(vtt.text).not.toContain("Jon Snow");
  });

  it("corrects a misheard name in the summary, the enhanced note and its action items too", async () => {
    const r = await api("POST", "/v1/notes", {
      title: "Menu review",
      transcripts: LINES,
      summary: "Jon Snow showed the new menu; Jonas and jon agreed.",
      enhancedNote: "## Action items\n- [ ] Jon Snow sends the menu (owner: Jon Snow)",
    });
    const note = r.body.note;
    const fixed = await api("PATCH", `/v1/notes/${note.id}/transcript/${note.transcripts[1].id}`, {
      version: 0,
      text: "The new menu from John Snow is ready for testing.",
    });
    expect(fixed.status, fixed.text).toBe(200);
    const after = (await api("GET", `/v1/notes/${note.id}`)).body.note;
    // Whole words in capitals only: "Jonas" and a lower-case "jon" are other words.
    expect(after.summary).toBe("John Snow showed the new menu; Jonas and jon agreed.");
    expect(after.enhancedNote).toContain("- [ ] John Snow sends the menu (owner: John Snow)");
    expect(after.title).toBe("Menu review");
    const items = (await api("GET", `/v1/action-items?noteId=${note.id}`)).body.items;
    expect(items.map((i: any) => [i.text, i.owner?.name])).toEqual([["John Snow sends the menu", "John Snow"]]);
  });

  it("gives a line, or the lines from it on, to another speaker", async () => {
    const note = await makeNote();
    const [, , , fourth] = note.transcripts;
    // One line: to Sarah, who is already a speaker.
    const one = await api("PATCH", `/v1/notes/${note.id}/transcript/${fourth.id}`, { version: 0, speaker: "Sarah" });
    expect(one.status, one.text).toBe(200);
    expect((await lines(note.id)).map((l) => l.speaker)).toEqual([
      "Sarah",
      "Speaker 2",
      "Speaker 2",
      "Sarah",
      "Speaker 2",
    ]);
    // From the second line on, what "Speaker 2" said is Tom's: Sarah's line in between stays hers.
    const second = note.transcripts[1];
    const on = await api("PATCH", `/v1/notes/${note.id}/transcript/${second.id}`, {
      version: 0,
      speaker: "Tom",
      fromHereOn: true,
    });
    expect(on.status, on.text).toBe(200);
    expect(on.body.lines.map((l: any) => l.id)).toEqual([second.id, note.transcripts[2].id, note.transcripts[4].id]);
    expect((await lines(note.id)).map((l) => l.speaker)).toEqual(["Sarah", "Tom", "Tom", "Sarah", "Tom"]);
    // The speakers list knows Tom now.
    const speakers = (await api("GET", `/v1/notes/${note.id}`)).body.note.speakers;
    expect(speakers.map((s: any) => s.name ?? s.label)).toEqual(expect.arrayContaining(["Sarah", "Tom"]));
  });

  it("deletes a line nobody said, and splits a line at a word", async () => {
    const note = await makeNote();
    const invented = note.transcripts[2];
    const del = await api("DELETE", `/v1/notes/${note.id}/transcript/${invented.id}?version=0`);
    expect(del.status, del.text).toBe(200);
    let now = await lines(note.id);
    expect(now.map((l) => l.text)).not.toContain("Thank you for watching.");
    expect(now).toHaveLength(LINES.length - 1);
    // Deleted is gone: a second delete, or an edit of it, is 404 with a clear message.
    const again = await api("DELETE", `/v1/notes/${note.id}/transcript/${invented.id}?version=0`);
    expect(again.status).toBe(404);
    expect(again.body.error.message).toMatch(/deleted, or the note was transcribed again/);

    const first = note.transcripts[0];
    const split = await api("POST", `/v1/notes/${note.id}/transcript/${first.id}/split`, { version: 0, atWord: 2 });
    expect(split.status, split.text).toBe(200);
    expect(split.body.lines.map((l: any) => l.text)).toEqual(["Welcome to", "the design review."]);
    expect(split.body.lines[0]).toMatchObject({ id: first.id, version: 1, startTimestamp: "00:00" });
    expect(split.body.lines[1].id).not.toBe(first.id);
    now = await lines(note.id);
    expect(now.map((l) => l.text).slice(0, 2)).toEqual(["Welcome to", "the design review."]);
    expect(now[1].startTimestamp >= now[0].endTimestamp).toBe(true);
    // A split must leave words on both sides.
    for (const atWord of [0, 2, 9]) {
      const bad = await api("POST", `/v1/notes/${note.id}/transcript/${now[0].id}/split`, {
        version: 1,
        atWord,
      });
      expect(bad.status, `${atWord}: ${bad.text}`).toBe(400);
    }
  });

  it("refuses a stale edit with the line as it is now; of two edits at once, exactly one wins", async () => {
    const note = await makeNote();
    const line = note.transcripts[3];
    const first = await api("PATCH", `/v1/notes/${note.id}/transcript/${line.id}`, {
      version: 0,
      text: "I will run the usability test on Thursday.",
    });
    expect(first.status).toBe(200);
    const stale = await api("PATCH", `/v1/notes/${note.id}/transcript/${line.id}`, {
      version: 0,
      text: "I will run the test on Monday.",
    });
    expect(stale.status).toBe(409);
    expect(errorCode(stale)).toBe("conflict");
    expect(stale.body.error.current).toMatchObject({
      id: line.id,
      version: 1,
      text: "I will run the usability test on Thursday.",
    });

    // Two tabs, one edit each, sent together: one is applied, the other is told.
    const other = note.transcripts[4];
    const both = await Promise.all(
      ["The icons need work.", "The icons are done."].map((text) =>
        api("PATCH", `/v1/notes/${note.id}/transcript/${other.id}`, { version: 0, text }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const won = both.find((r) => r.status === 200)!.body.lines[0].text;
    expect((await lines(note.id))[4]).toMatchObject({ version: 1, text: won });
    // Edits of different lines of one note at once all land.
    const all = await Promise.all(
      note.transcripts
        .slice(0, 3)
        .map((l, i) => api("PATCH", `/v1/notes/${note.id}/transcript/${l.id}`, { version: 0, text: `Line ${i}.` })),
    );
    expect(all.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await lines(note.id)).slice(0, 3).map((l) => l.text)).toEqual(["Line 0.", "Line 1.", "Line 2."]);
  });

  it("refuses bad input by name, at the limits, and never takes an empty edit for a delete", async () => {
    const note = await makeNote();
    const line = note.transcripts[0];
    const path = `/v1/notes/${note.id}/transcript/${line.id}`;
    const cases: [unknown, RegExp][] = [
      [{ version: 0 }, /Nothing to change/],
      [{ version: 0, text: "   " }, /text: cannot be empty/],
      [{ version: 0, text: "x".repeat(10_001) }, /text/],
      [{ text: "Hello." }, /version/],
      [{ version: -1, text: "Hello." }, /version/],
      [{ version: 0, text: "Hello.", colour: "red" }, /colour/],
      [{ version: 0, fromHereOn: true }, /fromHereOn/],
    ];
    for (const [body, message] of cases) {
      const r = await api("PATCH", path, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toMatch(message);
    }
    expect((await api("PATCH", path, { version: 0, text: "x".repeat(10_000) })).status).toBe(200);
    expect((await api("DELETE", path)).status).toBe(400);
    expect((await api("DELETE", `${path}?version=abc`)).status).toBe(400);
    expect((await api("PATCH", `/v1/notes/${note.id}/transcript/seg_nosuch`, { version: 0, text: "Hi." })).status).toBe(
      404,
    );
    expect(
      (await api("PATCH", `/v1/notes/note_nosuch/transcript/${line.id}`, { version: 0, text: "Hi." })).status,
    ).toBe(404);
    expect(await lines(note.id)).toHaveLength(LINES.length);
  });

  it("is for whoever may edit the note: another workspace and a key without the notes scope may not", async () => {
    const note = await makeNote();
    const line = note.transcripts[0];
    const path = `/v1/notes/${note.id}/transcript/${line.id}`;
    // A member of the workspace edits a workspace note.
    const member = await addMember(server, { name: "Mia", email: "mia@example.com" });
    const byMember = await client(server.url, member.key)("PATCH", path, { version: 0, text: "Welcome, all." });
    expect(byMember.status, byMember.text).toBe(200);
    // A key without the notes scope is refused before anything is read.
    const scoped = await addMember(server, { name: "Keeper", email: "keeper2@example.com", scopes: "folders" });
    expect((await client(server.url, scoped.key)("PATCH", path, { version: 1, text: "No." })).status).toBe(403);
    // A private note of the admin does not exist for the member.
    const own = await api("POST", "/v1/notes", { title: "Mine", transcripts: LINES, visibility: "only-me" });
    const mine = own.body.note;
    const hidden = await client(server.url, member.key)(
      "PATCH",
      `/v1/notes/${mine.id}/transcript/${mine.transcripts[0].id}`,
      { version: 0, text: "Mine now." },
    );
    expect(hidden.status).toBe(404);
    expect((await lines(mine.id))[0].text).toBe(LINES[0].text);
  });
});

describe("processing a recording again after corrections", () => {
  let withAudio: TestServer;
  let stt: VendorServer;
  beforeAll(async () => {
    stt = await startTranscriptionServer({
      script: [
        { start: 0, end: 2, text: "The menu from Jon Snow is ready." },
        { start: 2, end: 4, text: "Thank you for watching." },
      ],
    });
    withAudio = await startServer({ args: ["--no-rate-limit", "--stt-url", stt.url] });
  }, 60_000);
  afterAll(async () => {
    await withAudio?.stop();
    await stt?.close();
  });

  it("asks before transcribing anew would lose them, and does it when told to", async () => {
    const api2 = client(withAudio.url, withAudio.key);
    const id = await uploadRecording(api2, tone(tempDir("notula-edits-"), 5), "wav", { title: "Menu" });
    const note = await waitForStatus(api2, id);
    expect(note.status, note.processingError).toBe("completed");
    const line = note.transcripts[0];
    const fixed = await api2("PATCH", `/v1/notes/${id}/transcript/${line.id}`, {
      version: line.version,
      text: "The menu from John Snow is ready.",
    });
    expect(fixed.status, fixed.text).toBe(200);

    const asked = await api2("POST", `/v1/notes/${id}/reprocess`);
    expect(asked.status).toBe(409);
    expect(asked.body.error.message).toMatch(
      /would lose 1 line of the transcript a person corrected.*discardCorrections=true/,
    );
    expect((await api2("GET", `/v1/notes/${id}`)).body.note.transcripts[0].text).toBe(
      "The menu from John Snow is ready.",
    );
    expect((await api2("POST", `/v1/notes/${id}/reprocess?discardCorrections=maybe`)).status).toBe(400);

    const told = await api2("POST", `/v1/notes/${id}/reprocess?discardCorrections=true`);
    expect(told.status, told.text).toBe(200);
    const again = await waitForStatus(api2, id);
    expect(again.transcripts.map((l: { text: string }) => l.text)).toEqual([
      "The menu from Jon Snow is ready.",
      "Thank you for watching.",
    ]);
    // Transcribed anew: new lines, nothing corrected, so processing again asks nothing.
    expect(again.transcripts.every((l: { version: number; id: string }) => l.version === 0 && l.id !== line.id)).toBe(
      true,
    );
    expect((await api2("POST", `/v1/notes/${id}/reprocess`)).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linesOf } from "../helpers/flow.js";
import { client, errorCode, type Client } from "../helpers/http.js";
import { admin, startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
let api: Client;
let me: { user: { id: string } };

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
  me = (await api("GET", "/v1/me")).body;
});
afterAll(() => server?.stop());

const NOTE_KEYS = [
  "id",
  "title",
  "kind",
  "status",
  "createdAt",
  "updatedAt",
  "visibility",
  "tags",
  "participants",
  "totalDurationSec",
  "userWrittenNote",
  "enhancedNote",
  "summary",
  "transcripts",
  "calendarEvent",
  "inputLanguage",
  "translationLanguage",
  "meetingApp",
];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function folder(name: string) {
  const r = await api("POST", "/v1/folders", { name, ownerUserId: me.user.id, color: "#112233" });
  expect(r.status).toBe(200);
  return r.body.folder as { id: string; name: string };
}

describe("notes: create and read", () => {
  it("creates a note from text and reads it whole", async () => {
    const f = await folder("Sales");
    const created = await api("POST", "/v1/notes", {
      title: "Quarterly planning",
      userWrittenNote: "# Agenda\n- budget",
      kind: "in-person",
      visibility: "private",
      participants: [{ name: "Ana", email: "Ana@Example.com", accountName: "Example", accountDomain: "example.com" }],
      transcripts: [
        { speaker: "Ana", text: "Let us start.", startTimestamp: "00:00", endTimestamp: "00:04" },
        { speaker: "Bo", text: "Long one.", startTimestamp: "59:58", endTimestamp: "75:03" },
      ],
      summary: "Budget agreed.",
      enhancedNote: "## Decisions\n- budget",
      folderIds: [f.id],
      calendarEvent: {
        id: "ev1",
        title: "Planning",
        attendees: [{ self: true, email: "ana@example.com", displayName: "Ana" }],
      },
    });
    expect(created.status).toBe(200);
    const note = created.body.note;
    expect(Object.keys(note)).toEqual(expect.arrayContaining(NOTE_KEYS));
    expect(note).toMatchObject({
      title: "Quarterly planning",
      kind: "in-person",
      status: "completed",
      visibility: "only-me",
      summary: "Budget agreed.",
      totalDurationSec: 4503,
      tags: [{ id: f.id, name: "Sales", color: "#112233" }],
      processingError: null,
    });
    expect(note.createdAt).toMatch(ISO);
    expect(note.updatedAt).toMatch(ISO);
    expect(note.participants[0]).toEqual({
      name: "Ana",
      email: "Ana@Example.com",
      profileImageUrl: "",
      accountName: "Example",
      accountDomain: "example.com",
      accountImageUrl: "",
    });
    expect(linesOf(note.transcripts)).toEqual([
      { speaker: "Ana", text: "Let us start.", startTimestamp: "00:00", endTimestamp: "00:04" },
      { speaker: "Bo", text: "Long one.", startTimestamp: "59:58", endTimestamp: "75:03" },
    ]);

    const read = await api("GET", `/v1/notes/${note.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ note });

    const list = await api("GET", `/v1/notes?search=quarterly`);
    const item = list.body.items.find((n: { id: string }) => n.id === note.id);
    expect(item).toMatchObject({
      enhancedNote: "",
      summary: "",
      transcripts: [],
      userWrittenNote: "# Agenda\n- budget",
    });
    expect(item.tags).toHaveLength(1);
    expect(item).not.toHaveProperty("processingError");
  });

  it("a transcript without a summary is summarized in the background (locally, without an LLM)", async () => {
    const r = await api("POST", "/v1/notes", {
      title: "Raw",
      userWrittenNote: "Check the budget numbers.",
      transcripts: [
        {
          speaker: "Ana",
          text: "The quarterly budget for the Lisbon office is too high.",
          startTimestamp: "00:00",
          endTimestamp: "00:05",
        },
        {
          speaker: "Bo",
          text: "We decided to move the Lisbon office budget review to March.",
          startTimestamp: "00:05",
          endTimestamp: "00:09",
        },
        {
          speaker: "Ana",
          text: "I will send the revised budget numbers by Friday.",
          startTimestamp: "00:09",
          endTimestamp: "00:12",
        },
      ],
    });
    expect(r.body.note.status).toBe("summarizing");
    let note = r.body.note;
    for (let i = 0; i < 100 && note.status !== "completed"; i++) {
      await new Promise((res) => setTimeout(res, 100));
      note = (await api("GET", `/v1/notes/${note.id}`)).body.note;
    }
    expect(note.status).toBe("completed");
    expect(note.processingInfo).toEqual({ summary: "extractive" });
    expect(note.summary).toMatch(/budget/i);
    expect(note.enhancedNote).toContain("## Your notes");
    expect(note.enhancedNote).toContain("Check the budget numbers.");
    expect(note.enhancedNote).toMatch(/## Decisions\n\n- We decided to move/);
    expect(note.enhancedNote).toMatch(/- \[ \] I will send the revised budget numbers by Friday\. \(owner: Ana\)/);
  });

  it("404 for an unknown note on read, update and delete", async () => {
    for (const [m, body] of [["GET"], ["PATCH", { title: "x" }], ["DELETE"]] as const) {
      const r = await api(m, "/v1/notes/note_doesnotexist", body);
      expect(r.status).toBe(404);
      expect(errorCode(r)).toBe("not_found");
    }
  });

  it("validates the create body", async () => {
    for (const body of [
      {},
      { title: "" },
      { title: 5 },
      { title: "x", kind: "phone" },
      { title: "x", visibility: "everyone" },
      { title: "x", transcripts: [{ text: "a", startTimestamp: "1:2", endTimestamp: "00:01" }] },
      { title: "x", createdAt: "yesterday" },
      { title: "x", folderIds: ["fld_nope"] },
    ]) {
      const r = await api("POST", "/v1/notes", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(errorCode(r)).toBe("bad_request");
    }
  });
});

describe("notes: update", () => {
  it("accepts both visibility shapes and returns the newer one", async () => {
    const { note } = (await api("POST", "/v1/notes", { title: "Vis" })).body;
    for (const [sent, shown] of [
      ["private", "only-me"],
      ["shared", "public"],
      ["workspace", "workspace"],
      ["only-me", "only-me"],
      ["public", "public"],
    ]) {
      const r = await api("PATCH", `/v1/notes/${note.id}`, { visibility: sent });
      expect(r.status).toBe(200);
      expect(r.body.note.visibility).toBe(shown);
    }
    const bad = await api("PATCH", `/v1/notes/${note.id}`, { visibility: "secret" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/visibility/);
  });

  it("updates title and user note, returns full fields, and moves updatedAt", async () => {
    const { note } = (
      await api("POST", "/v1/notes", {
        title: "Before",
        summary: "S",
        transcripts: [{ text: "t", startTimestamp: "00:00", endTimestamp: "00:02" }],
      })
    ).body;
    await new Promise((r) => setTimeout(r, 5));
    const r = await api("PATCH", `/v1/notes/${note.id}`, { title: "After", userWrittenNote: "mine" });
    expect(r.body.note).toMatchObject({ title: "After", userWrittenNote: "mine", summary: "S" });
    expect(r.body.note.transcripts).toHaveLength(1);
    expect(Date.parse(r.body.note.updatedAt)).toBeGreaterThan(Date.parse(note.updatedAt));
    expect(r.body.note.createdAt).toBe(note.createdAt);
  });

  it("tagIds is an alias of folderIds, marked deprecated", async () => {
    const a = await folder("A");
    const b = await folder("B");
    const { note } = (await api("POST", "/v1/notes", { title: "Filed" })).body;

    const viaTags = await api("PATCH", `/v1/notes/${note.id}`, { tagIds: [a.id, b.id] });
    expect(viaTags.headers.get("deprecation")).toBe("true");
    expect(viaTags.body.note.tags.map((t: { id: string }) => t.id).sort()).toEqual([a.id, b.id].sort());

    const viaFolders = await api("PATCH", `/v1/notes/${note.id}`, { folderIds: [b.id] });
    expect(viaFolders.headers.get("deprecation")).toBeNull();
    expect(viaFolders.body.note.tags).toEqual([{ id: b.id, name: "B", color: "#112233" }]);

    const listTag = await api("GET", `/v1/notes?tagIds=${a.id}`);
    expect(listTag.headers.get("deprecation")).toBe("true");
    expect(listTag.body.items.map((n: { id: string }) => n.id)).not.toContain(note.id);
    const listFolder = await api("GET", `/v1/notes?folderIds=${a.id},${b.id}`);
    expect(listFolder.body.items.map((n: { id: string }) => n.id)).toContain(note.id);

    const both = await api("PATCH", `/v1/notes/${note.id}`, { tagIds: [a.id], folderIds: [b.id] });
    expect(both.status).toBe(400);
    const unknown = await api("PATCH", `/v1/notes/${note.id}`, { tagIds: ["fld_nope"] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/fld_nope/);

    const cleared = await api("PATCH", `/v1/notes/${note.id}`, { tagIds: [] });
    expect(cleared.body.note.tags).toEqual([]);
  });

  it("deletes a note", async () => {
    const { note } = (await api("POST", "/v1/notes", { title: "Gone soon" })).body;
    const r = await api("DELETE", `/v1/notes/${note.id}`);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect((await api("GET", `/v1/notes/${note.id}`)).status).toBe(404);
  });

  it("only-me notes are invisible to other members of the workspace", async () => {
    const ws = (await api("GET", "/v1/me")).body.workspace.id;
    const other = await admin(server.dataDir, [
      "users",
      "create",
      "--workspace",
      ws,
      "--email",
      "other@example.com",
      "--name",
      "Other",
    ]);
    const otherKey = await admin(server.dataDir, [
      "keys",
      "create",
      "--name",
      "other",
      "--workspace",
      ws,
      "--user",
      other.user.id,
    ]);
    const otherApi = client(server.url, otherKey.key);
    const { note } = (await api("POST", "/v1/notes", { title: "Secret diary", visibility: "private" })).body;
    expect((await otherApi("GET", `/v1/notes/${note.id}`)).status).toBe(404);
    expect((await otherApi("PATCH", `/v1/notes/${note.id}`, { title: "x" })).status).toBe(404);
    expect((await otherApi("DELETE", `/v1/notes/${note.id}`)).status).toBe(404);
    const list = await otherApi("GET", "/v1/notes?search=Secret diary");
    expect(list.body.items).toEqual([]);
    await api("PATCH", `/v1/notes/${note.id}`, { visibility: "workspace" });
    expect((await otherApi("GET", `/v1/notes/${note.id}`)).status).toBe(200);
  });
});

describe("notes: list limits", () => {
  it.each([
    ["0", 400],
    ["-1", 400],
    ["abc", 400],
    ["1.5", 400],
    ["101", 400],
    ["", 400],
    ["1", 200],
    ["100", 200],
  ])("limit=%s → %i", async (limit, status) => {
    const r = await api("GET", `/v1/notes?limit=${limit}`);
    expect(r.status).toBe(status);
    if (status === 200) {
      expect(r.body.pagination.limit).toBe(Number(limit));
      expect(r.body.items.length).toBeLessThanOrEqual(Number(limit));
    } else {
      expect(errorCode(r)).toBe("bad_request");
      expect(r.body.error.message).toMatch(/^limit:/);
    }
  });

  it("rejects a negative or non-numeric offset, unknown enums and bad dates", async () => {
    for (const q of [
      "offset=-1",
      "offset=x",
      "sortBy=size",
      "sortOrder=up",
      "status=done",
      "kind=phone",
      "fromDate=2026-13-45",
      "toDate=soon",
      // Days that do not exist, which Date.parse would roll over into the next month.
      "fromDate=2026-02-30",
      "toDate=2026-04-31",
      "toDate=2028-02-30T10:00:00Z",
      "fromDate=2026-03-01T24:00:00Z",
    ]) {
      const r = await api("GET", `/v1/notes?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.message).toContain(q.split("=")[0]);
    }
    // A leap day that exists, and an offset, pass.
    for (const q of ["fromDate=2028-02-29", "toDate=2026-03-01T10:30:00%2B01:00", "fromDate=2026-03-01%2009:30"])
      expect((await api("GET", `/v1/notes?${q}`)).status, q).toBe(200);
  });

  it("defaults to 20 items, createdAt desc", async () => {
    for (let i = 0; i < 22; i++)
      await api("POST", "/v1/notes", {
        title: `default ${i}`,
        createdAt: new Date(Date.UTC(2020, 0, 1, 0, i)).toISOString(),
      });
    const r = await api("GET", "/v1/notes");
    expect(r.body.pagination).toEqual({ limit: 20, nextOffset: 20, isLast: false });
    const times = r.body.items.map((n: { createdAt: string }) => Date.parse(n.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});

// The notes repository on both dialects: both render list items in SQL, from the same
// Note definition; every filter, sort and projection must give the same JSON text (the
// text JSON.stringify writes), and the writes the same rows.
import { describe, expect, it } from "vitest";
import { createRepositories } from "../../src/db/repos/index.js";
import type { NewNote, NoteListFilter } from "../../src/db/stores/note-store.js";
import { openDatabase } from "../../src/db/open.js";
import { pgConnection } from "../../src/db/pg/connection.js";
import { pgNoteRepo } from "../../src/db/pg/notes.js";
import { pgSchema } from "../../src/db/pg/schema.js";
import { withPostgres } from "../helpers/postgres.js";
import { tempDir } from "../helpers/server.js";

const view = (viewerUserId: string, hiddenFolderIds: string[] = []) => ({
  workspaceId: "ws_1",
  viewerUserId,
  hiddenFolderIds,
});

const TITLES = [
  "Budget review",
  "budget planning",
  "Design sync",
  "Hiring loop",
  "Quarterly plan",
  "Zebra crossing",
  "alpha launch",
];

function makeNote(i: number): NewNote {
  return {
    row: {
      id: `note_${String(i).padStart(3, "0")}`,
      workspaceId: "ws_1",
      createdBy: i % 5 === 0 ? "usr_2" : "usr_1",
      title: `${TITLES[i % TITLES.length]} ${i}`,
      kind: i % 3 === 0 ? "in-person" : "online",
      status: i % 4 === 0 ? "summarizing" : "completed",
      visibility: i % 5 === 0 ? "only-me" : "workspace",
      // Text that JSON must escape (quotes, backslash, controls) or keep as it is.
      userWrittenNote:
        i % 7 === 0 ? `Said "hi" \\ then\nnext\tline \u0001 é 日本 😀 \u2028 ${i}` : `Notes of meeting ${i}`,
      enhancedNote: "## Points",
      summary: "A summary",
      totalDurationSec: i * 30,
      participants:
        i % 2
          ? [
              {
                name: "Ana",
                email: "Ana@Example.com",
                profileImageUrl: "",
                accountName: "",
                accountDomain: "",
                accountImageUrl: "",
              },
            ]
          : [],
      calendarEvent: i % 6 === 0 ? { id: `cal_${i}`, title: "Event" } : null,
      inputLanguage: i % 2 ? "en" : null,
      translationLanguage: null,
      meetingApp: null,
      processingError: null,
      uploadId: null,
      recordingId: null,
      processingInfo: null,
      createdAt: Date.UTC(2026, 0, 1) + i * 3_600_000,
      updatedAt: Date.UTC(2026, 0, 1) + ((i * 7) % 40) * 3_600_000 + i,
    },
    segments: [{ speaker: "Speaker", text: `we talked about item ${i}`, startSec: 0, endSec: 5 }],
    folderIds: i % 3 === 0 ? ["fld_a"] : i % 4 === 0 ? ["fld_a", "fld_b"] : [],
  };
}

describe("the notes repository on both dialects", () => {
  const ctx = withPostgres();

  it("gives the same list JSON for every filter, sort and projection, and the same rows after writes", async () => {
    const lite = openDatabase(`${tempDir()}/n.db`);
    const sqliteRepos = createRepositories(lite.db);
    const conn = pgConnection(ctx.pg.db, ctx.pg.prepared);
    const pgNotes = pgNoteRepo(conn, conn.transaction, conn.names);
    const ws = {
      id: "ws_1",
      name: "W",
      plan: "pro" as const,
      settings: {},
      allowedEmailDomains: [],
      iconUrl: null,
      createdAt: 1,
      updatedAt: 1,
    };
    const users = ["usr_1", "usr_2"].map((id) => ({
      id,
      email: `${id}@x.org`,
      name: id,
      profileUrl: "",
      passwordHash: null,
      createdAt: 1,
    }));
    const folder = (id: string, name: string) => ({
      id,
      workspaceId: "ws_1",
      name,
      icon: null,
      color: "#123",
      isPrivate: false,
      parentFolderId: null,
      ownerUserId: "usr_1",
      createdAt: 1,
      updatedAt: 1,
    });
    await sqliteRepos.workspaces.insert(ws);
    for (const u of users) await sqliteRepos.users.insert(u);
    await sqliteRepos.folders.insert(folder("fld_a", "Alpha"));
    await sqliteRepos.folders.insert(folder("fld_b", 'Beta "B"'));
    await ctx.pg.db.insert(pgSchema.workspaces).values(ws);
    await ctx.pg.db.insert(pgSchema.users).values(users);
    await ctx.pg.db.insert(pgSchema.folders).values([folder("fld_a", "Alpha"), folder("fld_b", 'Beta "B"')]);
    for (let i = 1; i <= 40; i++) {
      await sqliteRepos.notes.insert(makeNote(i));
      await pgNotes.insert(makeNote(i));
    }

    const base: NoteListFilter = { limit: 7, offset: 0, sortBy: "createdAt", sortOrder: "desc" };
    const filters: Partial<NoteListFilter>[] = [
      {},
      { sortOrder: "asc", offset: 5 },
      { sortBy: "updatedAt" },
      { sortBy: "title", sortOrder: "asc" },
      { sortBy: "title", sortOrder: "desc", offset: 3 },
      { status: "summarizing" },
      { kind: "in-person" },
      { createdBy: "usr_2" },
      { fromDate: Date.UTC(2026, 0, 1, 5), toDate: Date.UTC(2026, 0, 1, 20) },
      { search: "budget" },
      { search: "budg plan" },
      { search: "%%%" },
      { folderIds: ["fld_a"] },
      { folderIds: ["fld_a", "fld_b"], sortBy: "title", sortOrder: "asc" },
      { participantEmail: "ANA@example.com" },
      { limit: 100 },
    ];
    // The viewers: two members, and one outside a private folder (fld_b hidden from them).
    const views = [view("usr_1"), view("usr_2"), view("usr_2", ["fld_b"])];
    for (const viewer of views)
      for (const extra of filters)
        for (const projection of ["item", "brief"] as const) {
          const f = { ...base, ...extra };
          const a = await sqliteRepos.notes.listJson(viewer, f, projection);
          const b = await pgNotes.listJson(viewer, f, projection);
          expect(b, `${JSON.stringify(viewer)} ${JSON.stringify(extra)} ${projection}`).toEqual(a);
        }
    // The hidden folder takes its notes out of the list, on both.
    const hiddenCount = (await pgNotes.listJson(view("usr_2", ["fld_b"]), { ...base, limit: 100 })).length;
    expect(hiddenCount).toBeLessThan((await pgNotes.listJson(view("usr_2"), { ...base, limit: 100 })).length);

    const same = async (what: string, read: (r: typeof pgNotes) => Promise<unknown>) =>
      expect(await read(pgNotes), what).toEqual(await read(sqliteRepos.notes as unknown as typeof pgNotes));
    await same("get", (r) => r.get(view("usr_1"), "note_007"));
    await same("private get", (r) => r.get(view("usr_1"), "note_005"));
    await same("folders", async (r) =>
      [...(await r.foldersOf(["note_003", "note_004", "note_008"])).entries()].sort(([a], [b]) => a.localeCompare(b)),
    );
    for (const r of [pgNotes, sqliteRepos.notes]) {
      await r.update("ws_1", "note_007", { title: "Renamed budget", updatedAt: 9 }, ["fld_b"]);
      await r.replaceTranscript(
        "note_007",
        [
          { speaker: "A", text: "one", startSec: 0, endSec: 1 },
          { speaker: "B", text: "two", startSec: 1, endSec: 2 },
        ],
        { status: "summarizing", updatedAt: 10 },
      );
      await r.setProcessingState("note_007", { status: "completed", summary: "new summary", updatedAt: 11 });
      await r.delete("ws_1", "note_009");
    }
    await same("after writes", (r) => r.getForProcessing("note_007"));
    // Ids are each store's own (random): the rest of each line is the same.
    await same("segments", async (r) => (await r.segmentsOf("note_007")).map(({ id: _id, ...line }) => line));
    await same("list after writes", (r) => r.listJson(view("usr_1"), { ...base, limit: 50, search: "renamed" }));
    await same("deleted", (r) => r.getForProcessing("note_009"));
    lite.close();
  });
});

// Full-text search answers alike on SQLite (FTS5) and PostgreSQL (tsvector): the same
// notes match, in the same order where the ranking is clear, with marked snippets,
// and only what the viewer may see.
import { describe, expect, it } from "vitest";
import { createRepositories } from "../../src/db/repos/index.js";
import { searchWords, type NoteSearch } from "../../src/db/repos/search.js";
import type { NewNote } from "../../src/db/repos/notes.js";
import { openDatabase } from "../../src/db/open.js";
import { pgSchema } from "../../src/db/pg/schema.js";
import { pgSearchRepo, reindexNote } from "../../src/db/pg/search.js";
import { withPostgres } from "../helpers/postgres.js";
import { tempDir } from "../helpers/server.js";

const note = (id: string, title: string, body: string, extra: Partial<NewNote["row"]> = {}, transcript: string[] = []): NewNote => ({
  row: {
    id, workspaceId: "ws_1", createdBy: "usr_1", title, kind: "online", status: "completed", visibility: "workspace",
    userWrittenNote: body, enhancedNote: "", summary: "", totalDurationSec: 0, participants: [], calendarEvent: null,
    inputLanguage: null, translationLanguage: null, meetingApp: null, processingError: null, audioUploadId: null, processingInfo: null,
    createdAt: Number(id.slice(-1)), updatedAt: 1, ...extra,
  },
  segments: transcript.map((text, i) => ({ speaker: "Speaker", text, startSec: i * 10, endSec: i * 10 + 9 })),
  folderIds: [],
});

const NOTES = [
  note("note_1", "Budget review", "We went over the quarterly budget and hiring plans."),
  note("note_2", "Design sync", "Colours and typography for the new landing page."),
  note("note_3", "Hiring", "Interview loop for the budget analyst role.", {}, ["the candidate asked about remote work"]),
  note("note_4", "Private budget", "Only mine.", { visibility: "only-me", createdBy: "usr_2" }),
];

const queries: [string, Partial<NoteSearch>][] = [
  ["budget", {}],
  ["budgets hiring", {}],
  ["typogr", {}],
  ["remote", {}],
  ["nothing-like-this", {}],
  ["budget", { fromDate: 2, toDate: 4 }],
];

describe("full-text search on both dialects", () => {
  const ctx = withPostgres();

  it("finds the same notes, the best first, with marked snippets, and never another viewer's private note", async () => {
    const lite = openDatabase(`${tempDir()}/s.db`);
    const repos = createRepositories(lite.db);
    const workspace = { id: "ws_1", name: "W", plan: "pro" as const, settings: {}, allowedEmailDomains: [], iconUrl: null, createdAt: 1, updatedAt: 1 };
    await repos.workspaces.insert(workspace);
    await ctx.pg.db.insert(pgSchema.workspaces).values(workspace);
    for (const n of NOTES) {
      await repos.notes.insert(n);
      await ctx.pg.db.insert(pgSchema.notes).values(n.row);
      if (n.segments.length) await ctx.pg.db.insert(pgSchema.transcriptSegments).values(n.segments.map((s, position) => ({ ...s, noteId: n.row.id, position })));
      await reindexNote(ctx.pg.db, n.row.id);
    }
    const pgSearch = pgSearchRepo(ctx.pg.db);
    for (const [text, extra] of queries) {
      const q: NoteSearch = { workspaceId: "ws_1", viewerUserId: "usr_1", words: searchWords(text), limit: 10, ...extra };
      const a = await repos.search.notes(q);
      const b = await pgSearch.notes(q);
      expect(b.map((h) => h.id), text).toEqual(a.map((h) => h.id));
      for (const h of [...a, ...b]) {
        expect(h.rank).toBeLessThan(0);
        expect(typeof h.createdAt).toBe("number");
      }
    }
    const budget = await pgSearch.notes({ workspaceId: "ws_1", viewerUserId: "usr_1", words: ["budget"], limit: 10 });
    expect(budget.map((h) => h.id)).toEqual(["note_1", "note_3"]);
    expect(budget[0].snippet).toContain("«Budget»");
    // The creator sees their private note.
    expect((await pgSearch.notes({ workspaceId: "ws_1", viewerUserId: "usr_2", words: ["private"], limit: 10 })).map((h) => h.id)).toEqual(["note_4"]);
    lite.close();
  });

  it("searches knowledge articles alike", async () => {
    await ctx.pg.db.insert(pgSchema.knowledgeArticles).values([
      { id: "kb_1", workspaceId: "ws_1", title: "Expense policy", content: "How to file expenses and budgets.", createdBy: "usr_1", createdAt: 1, updatedAt: 1 },
      { id: "kb_2", workspaceId: "ws_1", title: "Onboarding", content: "Laptop, accounts and the budget for books.", createdBy: "usr_1", createdAt: 2, updatedAt: 2 },
    ]);
    const hits = await pgSearchRepo(ctx.pg.db).articles({ workspaceId: "ws_1", words: ["expense"], limit: 5 });
    expect(hits.map((h) => h.id)).toEqual(["kb_1"]);
    expect(hits[0].snippet).toMatch(/«Expense»/);
    expect((await pgSearchRepo(ctx.pg.db).articles({ workspaceId: "ws_1", words: ["budget"], limit: 5 })).length).toBe(2);
    expect(await pgSearchRepo(ctx.pg.db).articles({ workspaceId: "ws_1", words: [], limit: 5 })).toEqual([]);
  });
});

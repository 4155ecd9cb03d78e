// Full-text search answers alike on SQLite (FTS5) and PostgreSQL (tsvector): the same
// notes match, in the same order where the ranking is clear, with marked snippets,
// and only what the viewer may see.
import { describe, expect, it } from "vitest";
import { createRepositories } from "../../src/db/repos/index.js";
import { segmentKey, type NoteRanking } from "../../src/db/stores/search-store.js";
import { parseSearchQuery } from "../../src/core/search-query.js";
import type { NewNote } from "../../src/db/stores/note-store.js";
import { openDatabase } from "../../src/db/open.js";
import { pgSchema } from "../../src/db/pg/schema.js";
import { pgSearchRepo, reindexNote } from "../../src/db/pg/search.js";
import { withPostgres } from "../helpers/postgres.js";
import { tempDir } from "../helpers/server.js";
import { workspaceRow } from "../helpers/rows.js";

const note = (
  id: string,
  title: string,
  body: string,
  extra: Partial<NewNote["row"]> = {},
  transcript: string[] = [],
): NewNote => ({
  row: {
    id,
    workspaceId: "ws_1",
    createdBy: "usr_1",
    title,
    kind: "online",
    status: "completed",
    visibility: "workspace",
    userWrittenNote: body,
    enhancedNote: "",
    summary: "",
    totalDurationSec: 0,
    participants: [],
    calendarEvent: null,
    inputLanguage: null,
    translationLanguage: null,
    meetingApp: null,
    processingError: null,
    uploadId: null,
    recordingId: null,
    processingInfo: null,
    createdAt: Number(id.slice(-1)),
    updatedAt: 1,
    ...extra,
  },
  segments: transcript.map((text, i) => ({ speaker: "Speaker", text, startSec: i * 10, endSec: i * 10 + 9 })),
  folderIds: [],
});

const NOTES = [
  note("note_1", "Budget review", "We went over the quarterly budget and hiring plans."),
  note("note_2", "Design sync", "Colours and typography for the new landing page."),
  note("note_3", "Hiring", "Interview loop for the budget analyst role.", {}, [
    "the candidate asked about remote work",
  ]),
  note("note_4", "Private budget", "Only mine.", { visibility: "only-me", createdBy: "usr_2" }),
];

const queries: [string, Partial<NoteRanking>][] = [
  ["budget", {}],
  ["budgets hiring", {}],
  ["budgets hiring", { match: "all" }],
  ["typogr", {}],
  ["remote", {}],
  ['"remote work"', {}],
  ['"work remote"', {}],
  ["nothing-like-this", {}],
  ["budget", { fromDate: 2, toDate: 4 }],
  ["budget", { speaker: "speaker" }],
];

describe("full-text search on both dialects", () => {
  const ctx = withPostgres();

  /** A workspace and its notes written to a fresh SQLite file and to the PostgreSQL database alike. */
  async function onBoth(workspaceId: string, notes: NewNote[]) {
    const lite = openDatabase(`${tempDir()}/${workspaceId}.db`);
    const repos = createRepositories(lite.db);
    await repos.workspaces.insert(workspaceRow(workspaceId));
    await ctx.pg.db.insert(pgSchema.workspaces).values(workspaceRow(workspaceId));
    for (const n of notes) {
      await repos.notes.insert(n);
      await ctx.pg.db.insert(pgSchema.notes).values(n.row);
      if (n.segments.length)
        await ctx.pg.db
          .insert(pgSchema.transcriptSegments)
          .values(n.segments.map((s, position) => ({ ...s, noteId: n.row.id, position })));
      await reindexNote(ctx.pg.db, n.row.id);
    }
    return { lite, repos, pgSearch: pgSearchRepo(ctx.pg.db) };
  }

  it("finds the same notes, the best first, with marked snippets, and never another viewer's private note", async () => {
    const { lite, repos, pgSearch } = await onBoth("ws_1", NOTES);
    for (const [text, extra] of queries) {
      const q: NoteRanking = {
        workspaceId: "ws_1",
        viewerUserId: "usr_1",
        hiddenFolderIds: [],
        query: parseSearchQuery(text),
        match: "any",
        limit: 10,
        cap: 100,
        ...extra,
      };
      const a = await repos.search.rankNotes(q);
      const b = await pgSearch.rankNotes(q);
      expect(
        b.map((h) => h.id),
        `${text} ${JSON.stringify(extra)}`,
      ).toEqual(a.map((h) => h.id));
      for (const h of [...a, ...b]) {
        expect(h.rank).toBeLessThan(0);
        expect(typeof h.createdAt).toBe("number");
        expect(typeof h.seq).toBe("number");
      }
    }
    const rank = (text: string, extra: Partial<NoteRanking> = {}) =>
      pgSearch.rankNotes({
        workspaceId: "ws_1",
        viewerUserId: "usr_1",
        hiddenFolderIds: [],
        query: parseSearchQuery(text),
        match: "any",
        limit: 10,
        cap: 100,
        ...extra,
      });
    expect((await rank("budget")).map((h) => h.id)).toEqual(["note_1", "note_3"]);
    expect((await rank('"remote work"')).map((h) => h.id)).toEqual(["note_3"]);
    expect(await rank('"work remote"')).toEqual([]);
    expect((await rank("budget hiring", { match: "all" })).map((h) => h.id)).toEqual(["note_1", "note_3"]);
    expect((await rank("budget colours", { match: "all" })).map((h) => h.id)).toEqual([]);
    // The creator sees their private note.
    expect((await rank("private", { viewerUserId: "usr_2" })).map((h) => h.id)).toEqual(["note_4"]);

    // The moment: the segment, its time, its speaker, the words marked; alike on both.
    const note3 = (await rank("remote"))[0];
    const liteNote3 = (
      await repos.search.rankNotes({
        workspaceId: "ws_1",
        viewerUserId: "usr_1",
        hiddenFolderIds: [],
        query: parseSearchQuery("remote"),
        match: "any",
        limit: 1,
        cap: 100,
      })
    )[0];
    const pgMoments = await pgSearch.moments(note3, parseSearchQuery("remote"), 3);
    const liteMoments = await repos.search.moments(liteNote3, parseSearchQuery("remote"), 3);
    for (const m of [pgMoments, liteMoments]) {
      expect(m).toHaveLength(1);
      expect(m[0]).toMatchObject({ position: 0, startSec: 0, speaker: "Speaker" });
      expect(m[0].text).toContain("«remote»");
    }
    for (const store of [repos.search, pgSearch])
      expect((await store.segmentsAt([{ noteId: "note_3", startSec: 0 }])).get(segmentKey("note_3", 0))).toMatchObject({
        position: 0,
        speaker: "Speaker",
      });
    expect(
      (
        await repos.search.inScope({ workspaceId: "ws_1", viewerUserId: "usr_1", hiddenFolderIds: [] }, [
          "note_4",
          "note_2",
          "note_1",
        ])
      ).map((n) => n.id),
    ).toEqual(["note_2", "note_1"]);
    expect(
      (
        await pgSearch.inScope({ workspaceId: "ws_1", viewerUserId: "usr_1", hiddenFolderIds: [] }, [
          "note_4",
          "note_2",
          "note_1",
        ])
      ).map((n) => n.id),
    ).toEqual(["note_2", "note_1"]);
    lite.close();
  });

  it("searches knowledge articles alike", async () => {
    await ctx.pg.db.insert(pgSchema.knowledgeArticles).values([
      {
        id: "kb_1",
        workspaceId: "ws_1",
        title: "Expense policy",
        content: "How to file expenses and budgets.",
        createdBy: "usr_1",
        createdAt: 1,
        updatedAt: 1,
      },
      {
        id: "kb_2",
        workspaceId: "ws_1",
        title: "Onboarding",
        content: "Laptop, accounts and the budget for books.",
        createdBy: "usr_1",
        createdAt: 2,
        updatedAt: 2,
      },
    ]);
    const hits = await pgSearchRepo(ctx.pg.db).articles({ workspaceId: "ws_1", words: ["expense"], limit: 5 });
    expect(hits.map((h) => h.id)).toEqual(["kb_1"]);
    expect(hits[0].snippet).toMatch(/«Expense»/);
    expect((await pgSearchRepo(ctx.pg.db).articles({ workspaceId: "ws_1", words: ["budget"], limit: 5 })).length).toBe(
      2,
    );
    expect(await pgSearchRepo(ctx.pg.db).articles({ workspaceId: "ws_1", words: [], limit: 5 })).toEqual([]);
  });
  it("finds a phrase said late in a long transcript, caps what it ranks, and reads a page's moments at once, alike", async () => {
    // 20,000 words (past the 16,383 positions a tsvector keeps), the phrase at the end.
    const filler = Array.from({ length: 500 }, (_, i) => `we talked about item ${i} ${"and more words ".repeat(12)}`);
    const notes = [
      note("note_5", "Long meeting", "", { workspaceId: "ws_2" }, [
        ...filler,
        "finally the harbour crane was approved",
      ]),
      note("note_6", "Crane words apart", "The crane is near the harbour.", { workspaceId: "ws_2" }),
      ...Array.from({ length: 6 }, (_, i) =>
        note(`note_r${i + 1}`, `Roadmap ${i}`, `Roadmap talk number ${i}.`, { workspaceId: "ws_2", createdAt: 10 + i }),
      ),
    ];
    const { lite, repos, pgSearch } = await onBoth("ws_2", notes);
    // The note's own row has lost where the phrase was said: only the segments know.
    const { rows } = await ctx.pg.pool.query(
      "SELECT s.tsv @@ to_tsquery('english', 'harbour <-> crane') AS phrase, s.tsv @@ to_tsquery('english', 'harbour & crane') AS words FROM notes_search s JOIN notes n ON n.seq = s.note_seq WHERE n.id = 'note_5'",
    );
    expect(rows[0]).toEqual({ phrase: false, words: true });
    const ask = (text: string, extra: Partial<NoteRanking> = {}): NoteRanking => ({
      workspaceId: "ws_2",
      viewerUserId: "usr_1",
      hiddenFolderIds: [],
      query: parseSearchQuery(text),
      match: "all",
      limit: 10,
      cap: 100,
      ...extra,
    });
    for (const store of [repos.search, pgSearch]) {
      expect((await store.rankNotes(ask('"harbour crane"'))).map((h) => h.id)).toEqual(["note_5"]);
      expect((await store.rankNotes(ask("harbour crane"))).map((h) => h.id).sort()).toEqual(["note_5", "note_6"]);
      // Only the newest `cap` matches are ranked.
      const capped = await store.rankNotes(ask("roadmap", { cap: 3 }));
      expect(capped.map((h) => h.id).sort()).toEqual(["note_r4", "note_r5", "note_r6"]);
    }
    const page = (await pgSearch.rankNotes(ask("harbour crane", { match: "any" }))).map((h) => ({
      id: h.id,
      seq: h.seq,
    }));
    const litePage = (await repos.search.rankNotes(ask("harbour crane", { match: "any" }))).map((h) => ({
      id: h.id,
      seq: h.seq,
    }));
    const query = parseSearchQuery("harbour crane");
    const pgFound = await pgSearch.pageMatches(page, query, 3);
    const liteFound = await repos.search.pageMatches(litePage, query, 3);
    for (const found of [pgFound, liteFound]) {
      // The long meeting by its moment (the last segment), the short note by its snippet.
      expect(found.get("note_5")!.moments[0]).toMatchObject({ position: 500, speaker: "Speaker" });
      expect(found.get("note_5")!.moments[0].text).toMatch(/«harbour» «crane»/);
      expect(found.get("note_5")!.snippet).toBeNull();
      expect(found.get("note_6")!.moments).toEqual([]);
      expect(found.get("note_6")!.snippet).toMatch(/«crane»/);
    }
    // Per note, the page's answer is what the single-note reads give.
    const single = await pgSearch.moments(
      page.find((p) => p.id === "note_5")!,
      query,
      3,
    );
    expect(pgFound.get("note_5")!.moments).toEqual(single);
    lite.close();
  });
});

// The store contract: what every implementation of the hand-declared stores
// (src/db/stores/) must do, run against each backend in turn. A new backend, or a
// change to one, passes this suite or does not ship. The dialect comparison tests
// (notes-dialects, search-dialects, passages-dialects) check that the two give the
// same answers; this one checks that the answers are the right ones.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepositories, type Repositories } from "../../src/db/repos/index.js";
import { openDatabase } from "../../src/db/open.js";
import { createPgRepositories } from "../../src/db/pg/repos.js";
import type { NewNote, NoteListFilter } from "../../src/db/stores/note-store.js";
import { segmentKey, type NoteRanking } from "../../src/db/stores/search-store.js";
import { parseSearchQuery } from "../../src/core/search-query.js";
import { createTestDatabase, type TestDatabase } from "../helpers/postgres.js";
import { openPostgres, type OpenedPostgres } from "../../src/db/pg/open.js";
import { tempDir } from "../helpers/server.js";
import { axisVector, noteRow, workspaceRow } from "../helpers/rows.js";

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

const workspace = workspaceRow;

const participant = (email: string) => ({
  name: "P",
  email,
  profileImageUrl: "",
  accountName: "",
  accountDomain: "",
  accountImageUrl: "",
});

const note = (id: string, over: Partial<NewNote["row"]> = {}, extra: Partial<Omit<NewNote, "row">> = {}) =>
  noteRow(id, { createdAt: T0, updatedAt: T0, ...over }, extra);

const seg = (text: string, startSec: number, speaker = "Speaker 1") => ({
  speaker,
  text,
  startSec,
  endSec: startSec + 5,
});

const ana = { workspaceId: "ws_1", viewerUserId: "usr_ana", hiddenFolderIds: [] as string[] };
const ben = { workspaceId: "ws_1", viewerUserId: "usr_ben", hiddenFolderIds: [] as string[] };
const list = (over: Partial<NoteListFilter> = {}): NoteListFilter => ({
  limit: 20,
  offset: 0,
  sortBy: "createdAt",
  sortOrder: "desc",
  ...over,
});
const ids = (json: string[]) => json.map((j) => (JSON.parse(j) as { id: string }).id);

const vec = axisVector;

interface Backend {
  repos: Repositories;
  close(): Promise<void>;
}

const backends: Record<"sqlite" | "postgres", () => Promise<Backend>> = {
  async sqlite() {
    const opened = openDatabase(`${tempDir()}/contract.db`);
    return { repos: createRepositories(opened.db), close: async () => opened.close() };
  },
  async postgres() {
    const database: TestDatabase = await createTestDatabase();
    const opened: OpenedPostgres = await openPostgres(database.url);
    return {
      repos: createPgRepositories(opened.db),
      async close() {
        await opened.close();
        await database.drop();
      },
    };
  },
};

describe.each(["sqlite", "postgres"] as const)("the store contract on %s", (backend) => {
  let b: Backend;
  let r: Repositories;
  beforeAll(async () => {
    b = await backends[backend]();
    r = b.repos;
    await r.workspaces.insert(workspace("ws_1"));
    await r.workspaces.insert(workspace("ws_2"));
    for (const [id, email] of [
      ["usr_ana", "ana@x.org"],
      ["usr_ben", "ben@x.org"],
    ])
      await r.users.insert({ id, email, name: id, profileUrl: "", passwordHash: null, createdAt: 1 });
    for (const [id, name, isPrivate] of [
      ["fld_board", "Board", true],
      ["fld_all", "All hands", false],
      ["fld_zed", "Zed", false],
    ] as const)
      await r.folders.insert({
        id,
        workspaceId: "ws_1",
        name,
        color: "#000000",
        isPrivate,
        icon: null,
        parentFolderId: null,
        ownerUserId: "usr_ana",
        createdAt: 1,
        updatedAt: 1,
      });
  });
  afterAll(() => b?.close());

  describe("NoteStore", () => {
    beforeAll(async () => {
      await r.notes.insert(
        note(
          "n_budget",
          { title: "Budget review", participants: [participant("  Cleo@Example.COM ")], createdAt: T0 + HOUR },
          { segments: [seg("we approved the quarterly budget", 0), seg("next we hire", 30, "Speaker 2")] },
        ),
      );
      await r.notes.insert(
        note("n_private", { title: "alpha only me", visibility: "only-me", createdAt: T0 + 2 * HOUR }),
      );
      await r.notes.insert(
        note("n_board", { title: "Board minutes", createdAt: T0 + 3 * HOUR }, { folderIds: ["fld_board", "fld_all"] }),
      );
      await r.notes.insert(
        note(
          "n_hiring",
          { title: "hiring loop", kind: "in-person", status: "summarizing", createdBy: "usr_ben", createdAt: T0 },
          { folderIds: ["fld_zed", "fld_all"] },
        ),
      );
      await r.notes.insert(note("n_other_ws", { workspaceId: "ws_2", title: "Budget elsewhere" }));
    });

    it("reads a note only through a view that lets the viewer see it", async () => {
      expect((await r.notes.get(ana, "n_budget"))?.title).toBe("Budget review");
      expect(await r.notes.get(ana, "n_other_ws")).toBeNull();
      expect(await r.notes.get({ ...ana, workspaceId: "ws_2" }, "n_budget")).toBeNull();
      expect((await r.notes.get(ana, "n_private"))?.id).toBe("n_private");
      expect(await r.notes.get(ben, "n_private")).toBeNull();
      expect((await r.notes.get(ben, "n_board"))?.id).toBe("n_board");
      expect(await r.notes.get({ ...ben, hiddenFolderIds: ["fld_board"] }, "n_board")).toBeNull();
      expect((await r.notes.getForProcessing("n_private"))?.id).toBe("n_private");
    });

    it("reads a note with its transcript, folders and speaker names at once, through the same view", async () => {
      await r.speakers.name({
        noteId: "n_budget",
        label: "Speaker 2",
        name: "Ben",
        email: "ben@x.org",
        suggested: false,
        updatedAt: 5,
      });
      const read = await r.notes.getWithParts(ana, "n_budget");
      expect(read!.row).toEqual(await r.notes.get(ana, "n_budget"));
      expect(read!.segments).toEqual(await r.notes.segmentsOf("n_budget"));
      expect(read!.segments.map((s) => s.text)).toEqual(["we approved the quarterly budget", "next we hire"]);
      expect(read!.speakerNames).toEqual([
        { noteId: "n_budget", label: "Speaker 2", name: "Ben", email: "ben@x.org", suggested: false, updatedAt: 5 },
      ]);
      expect((await r.notes.getWithParts(ana, "n_board"))!.tags.map((t) => t.id).sort()).toEqual(
        ((await r.notes.foldersOf(["n_board"])).get("n_board") ?? []).map((t) => t.id).sort(),
      );
      expect((await r.notes.getWithParts(ana, "n_board"))!.tags).toHaveLength(2);
      expect(await r.notes.getWithParts(ben, "n_private")).toBeNull();
      expect(await r.notes.getWithParts({ ...ben, hiddenFolderIds: ["fld_board"] }, "n_board")).toBeNull();
      expect(await r.notes.getWithParts(ana, "n_other_ws")).toBeNull();
      // The processing pipeline reads for no viewer: the same parts of any note, private ones too.
      expect(await r.notes.getWithPartsForProcessing("n_budget")).toEqual(read);
      expect((await r.notes.getWithPartsForProcessing("n_private"))!.row.id).toBe("n_private");
      expect(await r.notes.getWithPartsForProcessing("n_missing")).toBeNull();
    });

    it("lists what the view allows, a page plus one, in every order and by every filter", async () => {
      expect(ids(await r.notes.listJson(ana, list()))).toEqual(["n_board", "n_private", "n_budget", "n_hiring"]);
      expect(ids(await r.notes.listJson(ben, list()))).toEqual(["n_board", "n_budget", "n_hiring"]);
      expect(ids(await r.notes.listJson({ ...ben, hiddenFolderIds: ["fld_board"] }, list()))).toEqual([
        "n_budget",
        "n_hiring",
      ]);
      expect(ids(await r.notes.listJson(ana, list({ limit: 1 })))).toEqual(["n_board", "n_private"]);
      expect(ids(await r.notes.listJson(ana, list({ limit: 1, offset: 3 })))).toEqual(["n_hiring"]);
      // Titles sort ignoring case.
      expect(ids(await r.notes.listJson(ana, list({ sortBy: "title", sortOrder: "asc" })))).toEqual([
        "n_private",
        "n_board",
        "n_budget",
        "n_hiring",
      ]);
      expect(ids(await r.notes.listJson(ana, list({ status: "summarizing" })))).toEqual(["n_hiring"]);
      expect(ids(await r.notes.listJson(ana, list({ kind: "in-person" })))).toEqual(["n_hiring"]);
      expect(ids(await r.notes.listJson(ana, list({ createdBy: "usr_ben" })))).toEqual(["n_hiring"]);
      expect(ids(await r.notes.listJson(ana, list({ fromDate: T0 + HOUR, toDate: T0 + 3 * HOUR })))).toEqual([
        "n_private",
        "n_budget",
      ]);
      // The title search: every word starts a word of the title.
      expect(ids(await r.notes.listJson(ana, list({ search: "bud rev" })))).toEqual(["n_budget"]);
      expect(ids(await r.notes.listJson(ana, list({ search: "review budget zebra" })))).toEqual([]);
      expect(ids(await r.notes.listJson(ana, list({ search: "%%" })))).toEqual([]);
      expect(ids(await r.notes.listJson(ana, list({ folderIds: ["fld_all"] })))).toEqual(["n_board", "n_hiring"]);
      expect(ids(await r.notes.listJson(ana, list({ folderIds: ["fld_zed", "fld_board"] })))).toEqual([
        "n_board",
        "n_hiring",
      ]);
      // Participants match by their email trimmed and lower-cased.
      expect(ids(await r.notes.listJson(ana, list({ participantEmail: "cleo@example.com" })))).toEqual(["n_budget"]);
      expect(ids(await r.notes.listJson(ana, list({ participantEmail: " CLEO@example.com" })))).toEqual(["n_budget"]);
    });

    it("renders list items and briefs from the one Note shape, folders by name", async () => {
      const [item] = (await r.notes.listJson(ana, list({ search: "hiring" }))).map((j) => JSON.parse(j));
      expect(item).toMatchObject({ id: "n_hiring", title: "hiring loop", status: "summarizing", kind: "in-person" });
      expect(item.tags.map((t: { name: string }) => t.name)).toEqual(["All hands", "Zed"]);
      const [brief] = (await r.notes.listJson(ana, list({ search: "hiring" }), "brief")).map((j) => JSON.parse(j));
      expect(brief.id).toBe("n_hiring");
      expect(Object.keys(brief).length).toBeLessThan(Object.keys(item).length);
      const folders = await r.notes.foldersOf(["n_board", "n_budget"]);
      expect(folders.get("n_board")?.map((f) => f.name)).toEqual(["All hands", "Board"]);
      expect(folders.get("n_budget")).toBeUndefined();
      expect((await r.notes.foldersOf([])).size).toBe(0);
    });

    it("changes only notes of the given workspace, replaces folders, and keeps the search rows in step", async () => {
      expect(await r.notes.update("ws_2", "n_budget", { title: "Hijacked" })).toBe(false);
      expect(await r.notes.update("ws_1", "nope", { title: "x" })).toBe(false);
      expect(await r.notes.update("ws_1", "n_hiring", { title: "Recruiting pipeline" }, ["fld_zed"])).toBe(true);
      expect((await r.notes.foldersOf(["n_hiring"])).get("n_hiring")?.map((f) => f.id)).toEqual(["fld_zed"]);
      expect(ids(await r.notes.listJson(ana, list({ folderIds: ["fld_all"] })))).toEqual(["n_board"]);
      const rank = (text: string) =>
        r.search.rankNotes({ ...ana, query: parseSearchQuery(text), match: "any", limit: 10, cap: 100 });
      expect((await rank("recruiting")).map((n) => n.id)).toEqual(["n_hiring"]);
      expect(await rank("loop")).toEqual([]);
      await r.notes.setProcessingState("n_hiring", { summary: "Talked about zanzibar", status: "completed" });
      expect((await rank("zanzibar")).map((n) => n.id)).toEqual(["n_hiring"]);
    });

    it("starts a stage's progress afresh on a new status, and records progress without touching updatedAt", async () => {
      await r.notes.setProgress("n_budget", 40);
      const before = await r.notes.getForProcessing("n_budget");
      expect(before).toMatchObject({ processingProgress: 40, updatedAt: T0 });
      await r.notes.setProcessingState("n_budget", { status: "summarizing" });
      expect((await r.notes.getForProcessing("n_budget"))?.processingProgress).toBeNull();
      await r.notes.setProcessingState("n_budget", { status: "completed", processingProgress: 100 });
      expect((await r.notes.getForProcessing("n_budget"))?.processingProgress).toBe(100);
    });

    it("replaces a transcript whole, in order, however long, and indexes its moments", async () => {
      const long = Array.from({ length: 1234 }, (_, i) => seg(`line ${i}${i === 1000 ? " xylophone" : ""}`, i * 2));
      await r.notes.replaceTranscript("n_board", long, { totalDurationSec: 2468, status: "completed" });
      await r.notes.replaceTranscript("n_board", long, { totalDurationSec: 2468 });
      const segments = await r.notes.segmentsOf("n_board");
      expect(segments).toHaveLength(1234);
      // Each line gets its id (new at each transcription) and starts at version 0.
      expect(segments[0]).toEqual({ ...seg("line 0", 0), id: expect.stringMatching(/^seg_/), version: 0 });
      expect(new Set(segments.map((s) => s.id)).size).toBe(1234);
      expect(segments[1233].text).toBe("line 1233");
      expect((await r.notes.getForProcessing("n_board"))?.totalDurationSec).toBe(2468);
      const found = await r.search.rankNotes({
        ...ana,
        query: parseSearchQuery("xylophone"),
        match: "any",
        limit: 10,
        cap: 100,
      });
      expect(found.map((n) => n.id)).toEqual(["n_board"]);
      const moments = await r.search.moments(found[0], parseSearchQuery("xylophone"), 3);
      expect(moments).toEqual([expect.objectContaining({ position: 1000, startSec: 2000, speaker: "Speaker 1" })]);
      expect(moments[0].text).toContain("«xylophone»");
    });

    it("walks every note in the order made, and deletes only within the workspace", async () => {
      const all: string[] = [];
      let after = 0;
      for (;;) {
        const page = await r.notes.idsAfter(after, 2);
        if (!page.length) break;
        all.push(...page.map((p) => p.id));
        after = page[page.length - 1].seq;
      }
      expect(all).toEqual(["n_budget", "n_private", "n_board", "n_hiring", "n_other_ws"]);
      expect(await r.notes.delete("ws_2", "n_private")).toBe(false);
      expect(await r.notes.delete("ws_1", "n_private")).toBe(true);
      expect(await r.notes.delete("ws_1", "n_private")).toBe(false);
      expect(await r.notes.getForProcessing("n_private")).toBeNull();
    });
  });

  describe("SearchStore", () => {
    const rank = (over: Partial<NoteRanking> & { q: string }) =>
      r.search.rankNotes({ ...ana, query: parseSearchQuery(over.q), match: "any", limit: 10, cap: 100, ...over });

    beforeAll(async () => {
      await r.notes.insert(
        note(
          "s_title",
          { title: "Roadmap planning", createdAt: T0 + 10 * HOUR, participants: [participant("dan@x.org")] },
          { segments: [seg("the roadmap is long", 0, "Speaker 1")] },
        ),
      );
      await r.notes.insert(
        note(
          "s_body",
          { title: "Weekly sync", createdAt: T0 + 11 * HOUR },
          { segments: [seg("someone said roadmap once", 12, "Speaker 2")], folderIds: ["fld_board"] },
        ),
      );
      await r.notes.insert(
        note("s_mine", {
          title: "Roadmap secrets",
          visibility: "only-me",
          createdBy: "usr_ben",
          createdAt: T0 + 12 * HOUR,
        }),
      );
      await r.speakers.name({
        noteId: "s_title",
        label: "Speaker 1",
        name: "Dana",
        email: null,
        suggested: false,
        updatedAt: 1,
      });
      await r.knowledge.insert({
        id: "kb_1",
        workspaceId: "ws_1",
        title: "Roadmap policy",
        content: "How we plan",
        createdBy: "usr_ana",
        createdAt: 1,
        updatedAt: 1,
      });
      await r.knowledge.insert({
        id: "kb_2",
        workspaceId: "ws_2",
        title: "Roadmap elsewhere",
        content: "x",
        createdBy: "usr_ana",
        createdAt: 1,
        updatedAt: 1,
      });
    });

    it("ranks the title above the body, and never returns a note the view hides", async () => {
      expect((await rank({ q: "roadmap" })).map((n) => n.id)).toEqual(["s_title", "s_body"]);
      expect((await rank({ q: "roadmap", viewerUserId: "usr_ben" })).map((n) => n.id)).toEqual([
        "s_title",
        "s_mine",
        "s_body",
      ]);
      expect((await rank({ q: "roadmap", hiddenFolderIds: ["fld_board"] })).map((n) => n.id)).toEqual(["s_title"]);
      expect(await rank({ q: "roadmap", workspaceId: "ws_2" })).toEqual([]);
      expect(await rank({ q: "" })).toEqual([]);
    });

    it("applies the search's filters: dates, folders, participant, speaker by label or name, and the cap", async () => {
      expect((await rank({ q: "roadmap", fromDate: T0 + 11 * HOUR })).map((n) => n.id)).toEqual(["s_body"]);
      expect((await rank({ q: "roadmap", toDate: T0 + 11 * HOUR })).map((n) => n.id)).toEqual(["s_title"]);
      expect((await rank({ q: "roadmap", folderIds: ["fld_board"] })).map((n) => n.id)).toEqual(["s_body"]);
      expect((await rank({ q: "roadmap", participantEmail: "dan@x.org" })).map((n) => n.id)).toEqual(["s_title"]);
      expect((await rank({ q: "roadmap", speaker: "dana" })).map((n) => n.id)).toEqual(["s_title"]);
      expect((await rank({ q: "roadmap", speaker: "speaker 2" })).map((n) => n.id)).toEqual(["s_body"]);
      // Only the newest `cap` matches are ranked.
      expect((await rank({ q: "roadmap", cap: 1 })).map((n) => n.id)).toEqual(["s_body"]);
      expect((await rank({ q: "roadmap planning", match: "all" })).map((n) => n.id)).toEqual(["s_title"]);
    });

    it("keeps the given order of the notes the scope lets through", async () => {
      const through = await r.search.inScope(ana, ["s_body", "s_mine", "missing", "s_title"]);
      expect(through.map((n) => n.id)).toEqual(["s_body", "s_title"]);
      expect(through[0]).toMatchObject({ title: "Weekly sync", createdAt: T0 + 11 * HOUR });
      expect(await r.search.inScope({ ...ana, hiddenFolderIds: ["fld_board"] }, ["s_body"])).toEqual([]);
      expect(await r.search.inScope(ana, [])).toEqual([]);
    });

    it("marks where a note says it, and finds the segment at a time", async () => {
      const [hit] = await rank({ q: "roadmap" });
      expect(await r.search.noteSnippet(hit, parseSearchQuery("planning"))).toMatch(/«planning»/i);
      expect(await r.search.noteSnippet(hit, parseSearchQuery("zebra"))).toBeNull();
      // A prefix, unless the note was found by whole words only.
      expect(await r.search.noteSnippet(hit, parseSearchQuery("roadm"))).toMatch(/«roadmap»/i);
      expect(await r.search.noteSnippet({ ...hit, prefix: false }, parseSearchQuery("roadm"))).toBeNull();
      // A page's at once; a time past the last segment has none.
      const page = await r.search.segmentsAt([
        { noteId: "s_body", startSec: 10 },
        { noteId: "s_body", startSec: 13 },
        { noteId: "s_body", startSec: 0 },
      ]);
      expect([...page.keys()].sort()).toEqual([segmentKey("s_body", 0), segmentKey("s_body", 10)]);
      expect(page.get(segmentKey("s_body", 10))).toMatchObject({ position: 0, startSec: 12, speaker: "Speaker 2" });
      expect(page.get(segmentKey("s_body", 0))).toMatchObject({ position: 0, startSec: 12, speaker: "Speaker 2" });
      expect((await r.search.segmentsAt([])).size).toBe(0);
    });

    it("finds the workspace's articles by any word's start", async () => {
      const found = await r.search.articles({ workspaceId: "ws_1", words: ["roadm", "nothing"], limit: 5 });
      expect(found.map((a) => a.id)).toEqual(["kb_1"]);
      expect(found[0].snippet).toContain("«");
      expect(await r.search.articles({ workspaceId: "ws_1", words: [], limit: 5 })).toEqual([]);
    });
  });

  describe("PassageStore", () => {
    beforeAll(async () => {
      await r.passages.replace(
        "note",
        "p_a",
        "ws_1",
        [
          { text: "budget talk", timestampSec: 0 },
          { text: "hiring talk", timestampSec: 60 },
        ],
        [vec(0), vec(1)],
        "m1",
      );
      await r.passages.replaceMany([
        {
          source: "note",
          sourceId: "p_b",
          workspaceId: "ws_1",
          items: [{ text: "design talk", timestampSec: 5 }],
          vectors: [vec(2, 0.5)],
          model: "m1",
        },
        {
          source: "article",
          sourceId: "kb_1",
          workspaceId: "ws_1",
          items: [{ text: "budget policy", timestampSec: null }],
          vectors: [vec(0, 0.3)],
          model: "m1",
        },
      ]);
      await r.passages.replace("note", "p_c", "ws_2", [{ text: "elsewhere", timestampSec: 0 }], [vec(0)], "m1");
      await r.passages.replace("note", "p_d", "ws_1", [{ text: "other model", timestampSec: 0 }], [vec(0)], "m2");
    });

    it("gives the nearest passages of the workspace and model, nearest first, as an exact comparison does", async () => {
      const near = await r.passages.nearest("ws_1", vec(0), 2, "m1");
      expect(near.map((h) => [h.source, h.sourceId, h.text, h.timestampSec])).toEqual([
        ["note", "p_a", "budget talk", 0],
        ["article", "kb_1", "budget policy", null],
      ]);
      expect(near[0].distance).toBeCloseTo(0, 4);
      expect(near[1].distance).toBeGreaterThan(near[0].distance);
      const exact = await r.passages.nearestExact("ws_1", vec(0), 2, "m1");
      expect(exact.map((h) => h.text)).toEqual(near.map((h) => h.text));
      expect((await r.passages.nearest("ws_1", vec(0), 5, "m2")).map((h) => h.sourceId)).toEqual(["p_d"]);
    });

    it("replaces and removes a source's passages, and knows which model made them", async () => {
      expect(await r.passages.modelOf("note", "p_a")).toBe("m1");
      expect(await r.passages.modelOf("note", "missing")).toBeNull();
      await r.passages.replace("note", "p_a", "ws_1", [{ text: "budget again", timestampSec: 9 }], [vec(0)], "m1");
      const near = await r.passages.nearest("ws_1", vec(0), 10, "m1");
      expect(near.filter((h) => h.sourceId === "p_a").map((h) => h.text)).toEqual(["budget again"]);
      await r.passages.remove("note", "p_a");
      expect((await r.passages.nearest("ws_1", vec(0), 10, "m1")).map((h) => h.sourceId)).not.toContain("p_a");
      expect(await r.passages.modelOf("note", "p_a")).toBeNull();
    });

    it("keeps each vector with its own passage when several are replaced at once, and replacing with none empties", async () => {
      const items = [0, 1, 2, 3].map((i) => ({ text: `part ${i}`, timestampSec: i * 10 }));
      await r.passages.replace("note", "p_e", "ws_1", items, [vec(3), vec(4), vec(5), vec(6)], "m3");
      for (let i = 0; i < 4; i++) {
        const [hit] = await r.passages.nearest("ws_1", vec(3 + i), 1, "m3");
        expect([hit.text, hit.timestampSec]).toEqual([`part ${i}`, i * 10]);
        expect(hit.distance).toBeCloseTo(0, 4);
      }
      await r.passages.replace("note", "p_e", "ws_1", [], [], "m3");
      expect(await r.passages.nearest("ws_1", vec(3), 5, "m3")).toEqual([]);
      expect(await r.passages.modelOf("note", "p_e")).toBeNull();
    });
  });

  describe("PassageIndexStore", () => {
    it("has no build due for a workspace far below the index's threshold, and releasing one is harmless", async () => {
      expect(await r.passageIndex.buildsDue("ws_1")).toEqual([]);
      expect(await r.passageIndex.buildsDue()).toEqual([]);
      await r.passageIndex.releaseBuild({ workspaceId: "ws_1", dims: 8 });
      for (const status of await r.passageIndex.indexStatus()) expect(status.building).toBe(false);
    });
  });
});

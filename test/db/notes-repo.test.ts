// The notes repository on a real SQLite file: every plan of the folder filter gives
// the same answers, so the choice between them is only a matter of speed.
import { describe, expect, it } from "vitest";
import { noteRepo } from "../../src/db/sqlite/notes.js";
import { titleMatchQuery } from "../../src/db/sqlite/notes-list.js";
import { openRuntime } from "../../src/runtime/index.js";
import { tempDir, runtimeConfig } from "../helpers/server.js";

describe("noteRepo.list folder filter", () => {
  it("timeline, drive and probe plans return identical pages under every sort", async () => {
    const dir = tempDir();
    const rt = await openRuntime(await runtimeConfig(dir, { publicUrl: "http://127.0.0.1:8787" }));
    const db = rt.database.db!;
    const { services } = rt;
    const ws = await services.workspaces.create({ name: "W" });
    const p = (await services.apiKeys.authenticate(ws.key))!;
    const folders = await Promise.all(
      ["a", "b", "c"].map((name) => services.folders.create(p, { name, ownerUserId: ws.user.id })),
    );
    for (let i = 0; i < 120; i++)
      await services.notes.create(p, {
        title: `Note ${i % 17}`,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, i % 50)).toISOString(),
        folderIds: i % 3 === 0 ? [folders[0].id] : i % 4 === 0 ? [folders[1].id, folders[2].id] : [],
      });
    // A note filed after it was created keeps its createdAt on the timeline.
    const late = await services.notes.create(p, { title: "Filed later", createdAt: "2026-01-01T00:20:30.000Z" });
    await services.notes.update(p, late.id, { folderIds: [folders[0].id] });
    const timeline = noteRepo(db);
    const drive = noteRepo(db, { folderDriveLimit: 1_000_000, folderTimeline: false });
    const probe = noteRepo(db, { folderDriveLimit: 1, folderTimeline: false });
    for (const sortBy of ["createdAt", "updatedAt", "title"] as const)
      for (const sortOrder of ["asc", "desc"] as const)
        for (const folderIds of [[folders[0].id], [folders[1].id, folders[2].id], [folders[0].id, folders[2].id]])
          for (const offset of [0, 7, 30]) {
            const f = {
              limit: 9,
              offset,
              sortBy,
              sortOrder,
              folderIds,
              fromDate: Date.UTC(2026, 0, 1, 0, 5),
              toDate: Date.UTC(2026, 0, 1, 0, 45),
            };
            const a = drive
              .listJson({ workspaceId: ws.workspace.id, viewerUserId: ws.user.id, hiddenFolderIds: [] }, f)
              .map((n) => JSON.parse(n).id);
            const b = probe
              .listJson({ workspaceId: ws.workspace.id, viewerUserId: ws.user.id, hiddenFolderIds: [] }, f)
              .map((n) => JSON.parse(n).id);
            if (offset === 0) expect(a.length).toBe(10); // a page plus the look-ahead row
            expect(b).toEqual(a);
            expect(
              timeline
                .listJson({ workspaceId: ws.workspace.id, viewerUserId: ws.user.id, hiddenFolderIds: [] }, f)
                .map((n) => JSON.parse(n).id),
            ).toEqual(a);
          }
    await rt.close();
  });
});

describe("titleMatchQuery", () => {
  it("turns a search box into word-prefix terms and neutralises FTS syntax", () => {
    // Words as every search reads them (core/search-query.ts wordsOf): lower-cased, which FTS5 matches regardless.
    expect(titleMatchQuery("Lisbon off")).toBe('"lisbon"* "off"*');
    expect(titleMatchQuery('"budget" OR x* NEAR(a b)')).toBe('"budget"* "or"* "x"* "near"* "a"* "b"*');
    expect(titleMatchQuery("%%%")).toBeNull();
    expect(titleMatchQuery("café-2026")).toBe('"café"* "2026"*');
  });
});

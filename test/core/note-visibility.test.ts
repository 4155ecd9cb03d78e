// Who may see a note is declared once (src/core/note-visibility.ts): the access policy
// evaluates the rule in process, and the stores compile it to SQL. Here both answer for
// every combination of a note's workspace, creator, visibility and folders and a
// viewer's workspace, person and hidden folders, on SQLite and on PostgreSQL, through
// the stores' real list and single-note reads; any disagreement is a defect of one form.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notePolicy, type Actor } from "../../src/core/access.js";
import { createRepositories, type Repositories } from "../../src/db/repos/index.js";
import { openDatabase } from "../../src/db/open.js";
import { createPgRepositories } from "../../src/db/pg/repos.js";
import { openPostgres } from "../../src/db/pg/open.js";
import type { NoteListFilter } from "../../src/db/stores/note-store.js";
import { createTestDatabase } from "../helpers/postgres.js";
import { tempDir } from "../helpers/server.js";
import { noteRow, workspaceRow } from "../helpers/rows.js";

const WORKSPACES = ["ws_a", "ws_b"];
const PEOPLE = ["usr_1", "usr_2", "usr_3"];
const VISIBILITIES = ["only-me", "workspace", "public"] as const;
// Two private folders and a shared one, in ws_a.
const FOLDER_SETS = [[], ["fld_p1"], ["fld_s"], ["fld_p1", "fld_s"], ["fld_p2"], ["fld_p1", "fld_p2"]];
const HIDDEN_SETS = [[], ["fld_p1"], ["fld_p2"], ["fld_p1", "fld_p2"]];

interface Made {
  id: string;
  workspaceId: string;
  createdBy: string;
  visibility: (typeof VISIBILITIES)[number];
  folderIds: string[];
}

function notes(): Made[] {
  const out: Made[] = [];
  for (const workspaceId of WORKSPACES)
    for (const createdBy of PEOPLE.slice(0, 2))
      for (const visibility of VISIBILITIES)
        for (const folderIds of FOLDER_SETS)
          out.push({ id: `n_${out.length}`, workspaceId, createdBy, visibility, folderIds });
  return out;
}

const row = (n: Made, i: number) =>
  noteRow(
    n.id,
    { workspaceId: n.workspaceId, createdBy: n.createdBy, visibility: n.visibility, createdAt: 1_000 + i },
    { folderIds: n.folderIds },
  );

const everything: NoteListFilter = { limit: 100, offset: 0, sortBy: "createdAt", sortOrder: "asc" };

const backends = {
  sqlite: async () => {
    const opened = openDatabase(`${tempDir()}/visibility.db`);
    return { repos: createRepositories(opened.db), close: async () => opened.close() };
  },
  postgres: async () => {
    const database = await createTestDatabase();
    const opened = await openPostgres(database.url);
    return {
      repos: createPgRepositories(opened.db),
      close: async () => {
        await opened.close();
        await database.drop();
      },
    };
  },
};

describe.each(["sqlite", "postgres"] as const)("the visibility rule on %s", (backend) => {
  let r: Repositories;
  let close: () => Promise<void>;
  const made = notes();
  beforeAll(async () => {
    ({ repos: r, close } = await backends[backend]());
    for (const w of WORKSPACES) await r.workspaces.insert(workspaceRow(w));
    for (const id of PEOPLE)
      await r.users.insert({ id, email: `${id}@x.org`, name: id, profileUrl: "", passwordHash: null, createdAt: 1 });
    for (const [id, isPrivate] of [
      ["fld_p1", true],
      ["fld_p2", true],
      ["fld_s", false],
    ] as const)
      await r.folders.insert({
        id,
        workspaceId: "ws_a",
        name: id,
        color: "#000000",
        isPrivate,
        icon: null,
        parentFolderId: null,
        ownerUserId: "usr_1",
        createdAt: 1,
        updatedAt: 1,
      });
    for (const [i, n] of made.entries()) await r.notes.insert(row(n, i));
  }, 60_000);
  afterAll(() => close?.());

  it("the stores' SQL and the policy's check agree for every note and viewer", async () => {
    let compared = 0;
    for (const workspaceId of WORKSPACES)
      for (const userId of PEOPLE)
        for (const hidden of HIDDEN_SETS) {
          const actor: Actor = { workspaceId, userId, role: "member", hiddenFolderIds: new Set(hidden) };
          const view = { workspaceId, viewerUserId: userId, hiddenFolderIds: [...hidden].sort() };
          const expected = made.filter((n) => notePolicy.see(actor, n)).map((n) => n.id);
          const listed = (await r.notes.listJson(view, everything)).map((j) => (JSON.parse(j) as { id: string }).id);
          expect(listed.sort(), `${workspaceId} ${userId} hidden ${hidden}`).toEqual([...expected].sort());
          for (const n of made) {
            const read = await r.notes.getWithParts(view, n.id);
            expect(read !== null, `${n.id} for ${userId}`).toBe(expected.includes(n.id));
          }
          compared++;
        }
    expect(compared).toBe(WORKSPACES.length * PEOPLE.length * HIDDEN_SETS.length);
    // Not vacuous: the rule lets some through and keeps some out for every reason it has.
    const actor: Actor = { workspaceId: "ws_a", userId: "usr_2", role: "member", hiddenFolderIds: new Set(["fld_p1"]) };
    const seen = made.filter((n) => notePolicy.see(actor, n));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.some((n) => n.workspaceId === "ws_b")).toBe(false);
    expect(seen.some((n) => n.visibility === "only-me" && n.createdBy !== "usr_2")).toBe(false);
    expect(seen.some((n) => n.folderIds.includes("fld_p1"))).toBe(false);
  }, 120_000);

  it("a share link shows a note while it is public, and no other", () => {
    for (const n of made) expect(notePolicy.seeByLink(n)).toBe(n.visibility === "public");
  });
});

// The vector index of our own, on SQLite and on PostgreSQL without pgvector: past its
// threshold a workspace's passages are partitioned into cells (k-means) in the
// background, searches read the nearest cells and keep finding what comparing every
// vector finds, during a rebuild too, and passages written or removed afterwards land
// in (or leave) their cells.
import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { describe, expect, it, onTestFinished } from "vitest";
import { openDatabase } from "../../src/db/open.js";
import { createPgRepositories } from "../../src/db/pg/repos.js";
import { pgCellSets } from "../../src/db/pg/cell-sets.js";
import { pgPassageRepo } from "../../src/db/pg/passages.js";
import { pgSchema } from "../../src/db/pg/schema.js";
import { withPostgres } from "../helpers/postgres.js";
import { createRepositories, type Repositories } from "../../src/db/repos/index.js";
import { cellsFor, PLACE_AT } from "../../src/db/cells.js";
import { trainCells } from "../../src/db/cells.js";
import { buildVectorIndex, type BuildProgress } from "../../src/pipeline/vector-index.js";
import { tempDir } from "../helpers/server.js";
import { workspaceRow } from "../helpers/rows.js";

const DIMS = 256;
let state = 7;
const rand = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32 - 0.5;
const unit = (x: Float32Array) => {
  const n = Math.hypot(...x) || 1;
  return x.map((c) => c / n);
};
/** Topics as directions, passages as noisy copies of them: neighbours cross cell borders. */
const topics = Array.from({ length: 60 }, () => unit(Float32Array.from({ length: DIMS }, rand)));
const passage = () => unit(topics[Math.floor((rand() + 0.5) * topics.length)].map((c) => c + rand() * 0.25));

/** Notes of ten passages each, their vectors noted in `written` when given. */
async function addNotes(
  repos: Repositories,
  workspace: string,
  notes: number,
  from: number,
  written?: Map<string, Map<string, Float32Array>>,
) {
  for (let i = from; i < from + notes; i++) {
    const vectors = Array.from({ length: 10 }, passage);
    const mine = written?.get(workspace) ?? new Map<string, Float32Array>();
    written?.set(workspace, mine);
    vectors.forEach((v, p) => mine.set(`n${i} p${p}`, v));
    await repos.passages.replace(
      "note",
      `${workspace}_${i}`,
      workspace,
      vectors.map((_, p) => ({ text: `n${i} p${p}`, timestampSec: p * 30 })),
      vectors,
      "m",
    );
  }
}

/** One build at a time (a claimed index is not built twice), then a build, its progress reported in order. */
async function buildOnce(repos: Repositories, target: { workspaceId: string; dims: number }) {
  expect(await repos.passageIndex.claimBuild(target, 1_000, 60_000)).toBe(true);
  expect(await buildVectorIndex(repos, () => 2_000, target)).toBe(false);
  await repos.passageIndex.releaseBuild(target);
  const seen: BuildProgress[] = [];
  expect(await buildVectorIndex(repos, Date.now, target, (p) => seen.push(p))).toBe(true);
  expect(seen.map((p) => p.stage)).toEqual(expect.arrayContaining(["training", "moving"]));
  expect(seen.every((p, i) => i === 0 || p.fraction >= seen[i - 1].fraction)).toBe(true);
  expect(seen.at(-1)!.fraction).toBe(1);
}

describe("the vector index on SQLite", () => {
  it("partitions a large workspace into cells, keeps the nearest passages found, and leaves a small one alone", async () => {
    const opened = openDatabase(`${tempDir()}/v.db`);
    const repos = createRepositories(opened.db, { vectorIndexAt: 1000 });
    const sqlite = opened.sqlite;
    const ws = (id: string) => workspaceRow(id);
    await repos.workspaces.insert(ws("ws_big"));
    await repos.workspaces.insert(ws("ws_small"));
    const add = (workspace: string, notes: number, from = 0) => addNotes(repos, workspace, notes, from);
    await add("ws_big", 300);
    await add("ws_small", 5);

    const recall = async (workspace: string, queries = 30) => {
      let found = 0;
      for (let q = 0; q < queries; q++) {
        const v = passage();
        const want = (await repos.passages.nearestExact(workspace, v, 10, "m")).map((h) => h.text);
        const got = (await repos.passages.nearest(workspace, v, 10, "m")).map((h) => h.text);
        found += want.filter((t) => got.includes(t)).length / want.length;
      }
      return found / queries;
    };

    // Below and at the threshold: one flat cell, exact results.
    expect(await repos.passageIndex.buildsDue()).toEqual([{ workspaceId: "ws_big", dims: DIMS }]);
    expect(await recall("ws_big", 10)).toBe(1);
    const cellCount = () =>
      sqlite.prepare("SELECT count(DISTINCT cell) FROM passage_members WHERE workspace_id = 'ws_big'").pluck().get();
    /** Each passage's cell as sqlite-vec has its bits, and as passage_members says. */
    const agree = () => {
      const codes = new Map(
        (
          sqlite.prepare(`SELECT rowid, workspace_id, cell FROM passage_codes_${DIMS}`).raw().all() as [
            number,
            string,
            number,
          ][]
        ).map(([id, w, c]) => [Number(id), `${w}/${c}`]),
      );
      const members = sqlite.prepare("SELECT passage_id, workspace_id, cell FROM passage_members").raw().all() as [
        number,
        string,
        number,
      ][];
      return members.length === codes.size && members.every(([id, w, c]) => codes.get(id) === `${w}/${c}`);
    };
    expect(cellCount()).toBe(1);

    const target = { workspaceId: "ws_big", dims: DIMS };
    await buildOnce(repos, target);

    const status = (await repos.passageIndex.indexStatus()).find((s) => s.workspaceId === "ws_big")!;
    expect(status).toMatchObject({
      passages: 3000,
      cells: cellsFor(3000),
      generation: 1,
      building: false,
      progress: null,
    });
    expect(cellCount()).toBeGreaterThan(cellsFor(3000) / 2);
    // Every passage left cell 0, and its bits are where passage_members says.
    expect(
      sqlite.prepare("SELECT count(*) FROM passage_members WHERE workspace_id = 'ws_big' AND cell = 0").pluck().get(),
    ).toBe(0);
    expect(agree()).toBe(true);
    expect(await repos.passageIndex.buildsDue()).toEqual([]);
    // Reads a share of the cells, and still finds (nearly) what comparing every vector finds.
    expect(await recall("ws_big")).toBeGreaterThanOrEqual(0.95);
    // The small workspace was not partitioned, and neither sees the other's passages.
    expect(
      sqlite.prepare("SELECT DISTINCT cell FROM passage_members WHERE workspace_id = 'ws_small'").pluck().all(),
    ).toEqual([0]);
    expect(await recall("ws_small")).toBe(1);
    const small = await repos.passages.nearest("ws_small", passage(), 100, "m");
    expect(small).toHaveLength(50);
    expect(small.every((h) => h.sourceId.startsWith("ws_small_"))).toBe(true);

    // Written after the build: into cell 0, found at once, and left there while fewer
    // than PLACE_AT wait.
    const v = passage();
    await repos.passages.replace("note", "late", "ws_big", [{ text: "the late one", timestampSec: 0 }], [v], "m");
    const cellOfLate = () =>
      sqlite
        .prepare("SELECT cell FROM passage_members JOIN passages ON id = passage_id WHERE source_id = 'late'")
        .pluck()
        .get();
    expect(cellOfLate()).toBe(0);
    expect((await repos.passages.nearest("ws_big", v, 1, "m"))[0].text).toBe("the late one");
    expect(await repos.passageIndex.buildsDue()).toEqual([]);
    // Once PLACE_AT wait, a build places them all in their cells, and they are still found.
    await add("ws_big", PLACE_AT / 10, 5_000);
    expect(await repos.passageIndex.buildsDue()).toEqual([target]);
    expect(await buildVectorIndex(repos, Date.now, target)).toBe(true);
    expect(cellOfLate()).not.toBe(0);
    expect(
      sqlite.prepare("SELECT count(*) FROM passage_members WHERE workspace_id = 'ws_big' AND cell = 0").pluck().get(),
    ).toBe(0);
    expect(agree()).toBe(true);
    expect((await repos.passageIndex.indexStatus()).find((s) => s.workspaceId === "ws_big")!.generation).toBe(1);
    expect((await repos.passages.nearest("ws_big", v, 1, "m"))[0].text).toBe("the late one");
    for (let i = 5_000; i < 5_000 + PLACE_AT / 10; i++) await repos.passages.remove("note", `ws_big_${i}`);
    await repos.passages.remove("note", "late");
    expect(sqlite.prepare("SELECT count(*) FROM passage_members WHERE workspace_id = 'ws_big'").pluck().get()).toBe(
      3000,
    );
    expect(agree()).toBe(true);
    expect((await repos.passageIndex.indexStatus()).find((s) => s.workspaceId === "ws_big")!.passages).toBe(3000);

    // A rebuild half done: the new cells hold some passages, the old ones the rest, and
    // searches read both generations.
    const ids = (
      sqlite.prepare("SELECT passage_id FROM passage_members WHERE workspace_id = 'ws_big'").pluck().all() as number[]
    ).filter((_, i) => i % 3 === 0);
    const { generation, firstCell } = await repos.passageIndex.installCells(
      target,
      await trainCells(await repos.passageIndex.vectorsOf(ids), 40, { seed: 5 }),
      3000,
    );
    expect(generation).toBe(2);
    expect(await repos.passageIndex.moveToCells(target, generation, firstCell, 1200)).toBe(1200);
    expect(
      sqlite
        .prepare("SELECT count(*) FROM passage_members WHERE workspace_id = 'ws_big' AND cell >= ?")
        .pluck()
        .get(firstCell),
    ).toBe(1200);
    expect(agree()).toBe(true);
    expect(await recall("ws_big")).toBeGreaterThanOrEqual(0.95);
    while (await repos.passageIndex.moveToCells(target, generation, firstCell, 1000));
    await repos.passageIndex.finishBuild(target, generation);
    expect(sqlite.prepare("SELECT count(*) FROM passage_centroids WHERE workspace_id = 'ws_big'").pluck().get()).toBe(
      40,
    );
    expect(await recall("ws_big")).toBeGreaterThanOrEqual(0.95);

    // Growing fourfold past the training asks for new cells.
    await add("ws_big", 900, 300);
    expect(await repos.passageIndex.buildsDue("ws_big")).toEqual([target]);
    expect(await buildVectorIndex(repos, Date.now, target)).toBe(true);
    expect((await repos.passageIndex.indexStatus()).find((s) => s.workspaceId === "ws_big")).toMatchObject({
      passages: 12_000,
      cells: cellsFor(12_000),
      generation: 3,
    });
    expect(await recall("ws_big")).toBeGreaterThanOrEqual(0.95);
    opened.close();
  }, 300_000); // k-means over 3,000 vectors: seconds here, minutes on a loaded machine
});

describe("the vector index on PostgreSQL without pgvector", () => {
  const ctx = withPostgres();

  it("partitions a large workspace into cells, screens only the nearest, and stays exact across replicas", async () => {
    const repos = createPgRepositories(ctx.pg.db, { vectorIndexAt: 1000 });
    const pool = ctx.pg.pool;
    const count = async (query: string, ...params: unknown[]) => Number((await pool.query(query, params)).rows[0].n);
    await repos.workspaces.insert(workspaceRow("ws_big"));
    await repos.workspaces.insert(workspaceRow("ws_small"));
    /** Every vector written, by workspace and text: the exact answers are worked out here. */
    const written = new Map<string, Map<string, Float32Array>>();
    const add = (workspace: string, notes: number, from = 0) => addNotes(repos, workspace, notes, from, written);
    await add("ws_big", 300);
    await add("ws_small", 5);

    // Another replica: its own connection (whose reads PostgreSQL counts for it alone)
    // and its own copy of the centroids.
    const client = new pg.Client({ connectionString: ctx.database.url });
    await client.connect();
    onTestFinished(() => client.end());
    const other = pgPassageRepo(drizzle(client, { schema: pgSchema }), (fn) => fn(), {
      cellSets: pgCellSets(drizzle(client, { schema: pgSchema })),
    });
    /** Vectors the other replica's searches screened, by PostgreSQL's statistics. */
    const screened = async () => {
      await client.query("SELECT pg_stat_force_next_flush()");
      const { rows } = await client.query(
        "SELECT idx_tup_read AS n FROM pg_stat_user_indexes WHERE indexrelname = 'passage_vectors_cell_idx'",
      );
      return Number(rows[0].n);
    };
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, j) => sum + x * b[j], 0);
    const recall = async (repo: typeof repos.passages, workspace: string, queries = 30) => {
      let found = 0;
      for (let q = 0; q < queries; q++) {
        const v = passage();
        const want = [...written.get(workspace)!]
          .map(([text, w]) => [text, dot(v, w)] as const)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 10)
          .map(([text]) => text);
        const got = (await repo.nearest(workspace, v, 10, "m")).map((h) => h.text);
        found += want.filter((t) => got.includes(t)).length / want.length;
      }
      return found / queries;
    };

    // At the threshold: all in cell 0, every vector screened, exact results.
    expect(await repos.passageIndex.buildsDue()).toEqual([{ workspaceId: "ws_big", dims: DIMS }]);
    expect(await recall(other, "ws_big", 10)).toBe(1);
    let before = await screened();
    await other.nearest("ws_big", passage(), 10, "m");
    expect((await screened()) - before).toBe(3000);

    const target = { workspaceId: "ws_big", dims: DIMS };
    await buildOnce(repos, target);
    expect((await repos.passageIndex.indexStatus()).find((s) => s.workspaceId === "ws_big")).toMatchObject({
      passages: 3000,
      cells: cellsFor(3000),
      generation: 1,
      building: false,
      progress: null,
    });
    expect(await count("SELECT count(*) AS n FROM passage_vectors WHERE workspace_id = 'ws_big' AND cell = 0")).toBe(0);
    expect(
      await count("SELECT count(DISTINCT cell) AS n FROM passage_vectors WHERE workspace_id = 'ws_big'"),
    ).toBeGreaterThan(cellsFor(3000) / 2);
    expect(await repos.passageIndex.buildsDue()).toEqual([]);

    // The other replica still knew the workspace without cells: its next search sees the
    // new generation in its own statement, reads the centroids and screens the nearest
    // cells only, and still finds (nearly) what comparing every vector finds.
    expect(await recall(other, "ws_big")).toBeGreaterThanOrEqual(0.95);
    // A question about one of the topics reads a share of the vectors (its nearest
    // cells, plus those about as near), not all of them.
    before = await screened();
    for (const topic of topics.slice(0, 30)) await other.nearest("ws_big", topic, 10, "m");
    expect((await screened()) - before).toBeLessThan(30 * 3000 * 0.4);
    expect(await recall(repos.passages, "ws_big")).toBeGreaterThanOrEqual(0.95);
    // The small workspace has no cells, and neither sees the other's passages.
    expect(await recall(repos.passages, "ws_small")).toBe(1);
    const small = await repos.passages.nearest("ws_small", passage(), 100, "m");
    expect(small).toHaveLength(50);
    expect(small.every((h) => h.sourceId.startsWith("ws_small_"))).toBe(true);

    // Written after the build: into cell 0, found at once, placed by the next build
    // once a thousand wait there.
    const v = passage();
    await repos.passages.replace("note", "late", "ws_big", [{ text: "the late one", timestampSec: 0 }], [v], "m");
    expect((await other.nearest("ws_big", v, 1, "m"))[0].text).toBe("the late one");
    expect(await repos.passageIndex.buildsDue("ws_big")).toEqual([]);
    await repos.passages.remove("note", "late");
    expect(await repos.passages.nearestExact("ws_big", v, 1, "m")).not.toContainEqual(
      expect.objectContaining({ text: "the late one" }),
    );
    expect((await repos.passageIndex.indexStatus()).find((s) => s.workspaceId === "ws_big")!.passages).toBe(3000);
    await add("ws_big", PLACE_AT / 10, 300);
    expect(await repos.passageIndex.buildsDue("ws_big")).toEqual([target]);
    expect(await buildVectorIndex(repos, Date.now, target)).toBe(true);
    expect(await count("SELECT count(*) AS n FROM passage_vectors WHERE workspace_id = 'ws_big' AND cell = 0")).toBe(0);
    expect((await repos.passageIndex.indexStatus()).find((s) => s.workspaceId === "ws_big")).toMatchObject({
      passages: 3000 + PLACE_AT,
      generation: 1,
    });
    expect(await recall(other, "ws_big")).toBeGreaterThanOrEqual(0.95);

    // A rebuild half done: the new cells hold some vectors, the old ones the rest, and
    // searches read both generations.
    const { rows: sample } = await pool.query(
      "SELECT passage_id AS id FROM passage_vectors WHERE workspace_id = 'ws_big' AND passage_id % 3 = 0",
    );
    const { generation, firstCell } = await repos.passageIndex.installCells(
      target,
      await trainCells(await repos.passageIndex.vectorsOf(sample.map((r) => Number(r.id))), 40, { seed: 5 }),
      4000,
    );
    expect(generation).toBe(2);
    expect(await repos.passageIndex.moveToCells(target, generation, firstCell, 1200)).toBe(1200);
    expect(
      await count("SELECT count(*) AS n FROM passage_vectors WHERE workspace_id = 'ws_big' AND cell >= $1", firstCell),
    ).toBe(1200);
    expect(await recall(other, "ws_big")).toBeGreaterThanOrEqual(0.95);
    // A build cut off there is finished by the next.
    expect(await repos.passageIndex.buildsDue("ws_big")).toEqual([target]);
    expect(await buildVectorIndex(repos, Date.now, target)).toBe(true);
    expect(await count("SELECT count(*) AS n FROM passage_centroids WHERE workspace_id = 'ws_big'")).toBe(40);
    expect(
      await count("SELECT count(*) AS n FROM passage_vectors WHERE workspace_id = 'ws_big' AND cell < $1", firstCell),
    ).toBe(0);
    expect(await recall(other, "ws_big")).toBeGreaterThanOrEqual(0.95);

    // Growing fourfold past the training asks for new cells.
    await add("ws_big", 1200, 400);
    expect(await repos.passageIndex.buildsDue("ws_big")).toEqual([target]);
    expect(await buildVectorIndex(repos, Date.now, target)).toBe(true);
    expect((await repos.passageIndex.indexStatus()).find((s) => s.workspaceId === "ws_big")).toMatchObject({
      passages: 16_000,
      cells: cellsFor(16_000),
      generation: 3,
    });
    expect(await recall(other, "ws_big")).toBeGreaterThanOrEqual(0.95);
  }, 120_000);
});

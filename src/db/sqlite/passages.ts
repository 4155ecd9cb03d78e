// Passages and their vectors on SQLite, written and searched: a vector index of our own,
// in the database file (its storage in passage-codes.ts, its build in passage-index.ts).
//
// Each passage keeps its vector whole (passages.embedding) and as one bit per dimension
// in a sqlite-vec table per size (passage_codes_<dims>), partitioned by workspace and
// cell. A search takes candidates by Hamming distance of the bits, then ranks those
// exactly by cosine distance. While a workspace has fewer than `indexAt` passages of a
// size, all are in cell 0 and a search reads them all (a few milliseconds). Past that,
// a build in the background (pipeline/vector-index.ts) trains cells on them (k-means,
// cells.ts), keeps the centroids in passage_centroids and moves each passage to its
// cell; a search then reads only the cells nearest its query, and cell 0. Passages
// written meanwhile wait in cell 0 until PLACE_AT have come, when a build places them
// together (cells.ts says why); the cells are retrained when the passages have grown
// fourfold. `npm run bench -- search` measures speed and recall against comparing
// every vector.
import type { Db } from "../open.js";
import { cellsToRead, type ProbeOptions } from "../cells.js";
import { checkDims, passageCodes, quantizable, type PassageCodes } from "./passage-codes.js";
import type { Synchronous } from "../stores/synchronous.js";
import type { PassageHit, PassageSet, PassageStore } from "../stores/passage-store.js";

export { PROBE_SHARE } from "../cells.js";

/** Candidates taken by Hamming distance for each result asked for; at least MIN_CANDIDATES. */
export const OVERSAMPLE = 8;
const MIN_CANDIDATES = 200;
/**
 * Cells are read nearest first, in groups: the nearest (where a query's neighbours
 * gather), the next two, then the rest. Each group gives only passages closer than the
 * farthest candidate kept so far: sqlite-vec applies that bound before it sorts, and
 * its sort costs (for each passage read) as much as the number of passages asked for,
 * so a tight bound keeps reading a cell cheap. The last group gives at most PER_CELL
 * passages per cell, which bounds its cost when the bound is loose.
 */
const GROUPS = [1, 2];
const PER_CELL = 24;

export function passageRepo(
  db: Db,
  opts: ProbeOptions = {},
  shared: PassageCodes = passageCodes(db.$client),
): Synchronous<PassageStore> {
  const sqlite = db.$client;
  const { stmt, codes, cellsOf, insertCode, deleteCode } = shared;

  const insertPassage = sqlite.prepare(
    "INSERT INTO passages (workspace_id, source, source_id, position, text, timestamp_sec, model, dims, embedding) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
  );
  const insertMember = sqlite.prepare(
    "INSERT INTO passage_members (passage_id, workspace_id, dims, cell) VALUES (?, ?, ?, ?)",
  );
  const oldOf = sqlite.prepare(
    "SELECT id, workspace_id AS workspaceId, dims FROM passages WHERE source = ? AND source_id = ?",
  );
  const deleteOf = sqlite.prepare("DELETE FROM passages WHERE source = ? AND source_id = ?");
  const modelOf = sqlite.prepare("SELECT model FROM passages WHERE source = ? AND source_id = ? LIMIT 1").pluck();
  const count = sqlite.prepare(
    "INSERT INTO passage_indexes (workspace_id, dims, passages) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET passages = max(0, passages + excluded.passages)",
  );
  const stateOf = sqlite.prepare("SELECT generation, cells FROM passage_indexes WHERE workspace_id = ? AND dims = ?");
  // INDEXED BY: statistics gathered while every passage was in cell 0 would have the
  // planner scan the whole table for a cell 0 that is empty by now.
  const hasUnplaced = sqlite
    .prepare(
      "SELECT 1 FROM passage_members INDEXED BY passage_members_cell_idx WHERE workspace_id = ? AND dims = ? AND cell = 0 LIMIT 1",
    )
    .pluck();
  const rerank = sqlite.prepare(`
    SELECT source, source_id AS sourceId, text, timestamp_sec AS timestampSec, vec_distance_cosine(embedding, @vector) AS distance
    FROM passages WHERE id IN (SELECT value FROM json_each(@ids)) AND workspace_id = @ws AND model = @model
    ORDER BY distance LIMIT @k`);
  const exact = sqlite.prepare(`
    SELECT source, source_id AS sourceId, text, timestamp_sec AS timestampSec, vec_distance_cosine(embedding, @vector) AS distance
    FROM passages WHERE workspace_id = @ws AND dims = @dims AND model = @model AND embedding IS NOT NULL
    ORDER BY distance LIMIT @k`);

  function remove(source: "note" | "article", sourceId: string) {
    const old = oldOf.all(source, sourceId) as { id: number; workspaceId: string; dims: number }[];
    const removed = new Map<string, { workspaceId: string; dims: number; n: number }>();
    for (const p of old) {
      if (!quantizable(p.dims)) continue;
      deleteCode(p.dims, p.id);
      const key = `${p.workspaceId}\0${p.dims}`;
      const entry = removed.get(key) ?? { workspaceId: p.workspaceId, dims: p.dims, n: 0 };
      entry.n++;
      removed.set(key, entry);
    }
    // passage_members rows go with their passages (ON DELETE CASCADE).
    deleteOf.run(source, sourceId);
    for (const r of removed.values()) count.run(r.workspaceId, r.dims, -r.n);
  }

  function replace(p: PassageSet) {
    const { source, sourceId, workspaceId, items, vectors, model } = p;
    remove(source, sourceId);
    if (!items.length) return;
    const dims = vectors[0].length;
    checkDims(dims);
    items.forEach((item, position) => {
      const vector = vectors[position];
      if (vector.length !== dims) throw new Error(`Embedding sizes differ within one ${source}.`);
      const { id } = insertPassage.get(
        workspaceId,
        source,
        sourceId,
        position,
        item.text,
        item.timestampSec,
        model,
        dims,
        vector,
      ) as { id: number };
      if (!quantizable(dims)) return;
      // Into cell 0, where a search finds it at once; a build places it with the others waiting there.
      insertMember.run(id, workspaceId, dims, 0);
      insertCode(dims, id, workspaceId, 0, vector);
    });
    if (quantizable(dims)) count.run(workspaceId, dims, items.length);
  }

  return {
    /** Replaces a note's or article's passages and vectors in one transaction. */
    replace(source, sourceId, workspaceId, items, vectors, model) {
      sqlite.transaction(() => replace({ source, sourceId, workspaceId, items, vectors, model }))();
    },
    /**
     * Replaces the passages of several notes and articles in one transaction: one
     * commit (and one sync to disk) for a batch, for bulk indexing.
     */
    replaceMany(sets: PassageSet[]) {
      sqlite.transaction(() => sets.forEach(replace))();
    },
    remove(source: "note" | "article", sourceId: string) {
      sqlite.transaction(() => remove(source, sourceId))();
    },
    /**
     * The nearest passages of a workspace, from vectors made by `model`: candidates by
     * Hamming distance of the bits, from the cells nearest the query once there are
     * cells, ranked exactly by cosine distance.
     */
    nearest(workspaceId: string, vector: Float32Array, k: number, model: string): PassageHit[] {
      const dims = vector.length;
      if (!quantizable(dims)) return exact.all({ vector, ws: workspaceId, dims, model, k }) as PassageHit[];
      const candidates = Math.max(MIN_CANDIDATES, k * OVERSAMPLE);
      const state = stateOf.get(workspaceId, dims) as { generation: number; cells: number } | undefined;
      const table = codes(dims);
      let rows: { id: number; distance: number }[];
      if (!state?.generation) {
        rows = stmt(
          `SELECT rowid AS id, distance FROM ${table} WHERE embedding MATCH vec_quantize_binary(?) AND workspace_id = ? AND cell = 0 AND k = ?`,
        ).all(vector, workspaceId, candidates) as typeof rows;
      } else {
        // Cell 0 holds passages not yet moved to a cell; while cells are rebuilt, the
        // previous generation's still hold the passages not yet moved to the new ones.
        const lists: number[][] = [];
        for (const generation of [state.generation, state.generation - 1]) {
          const set = cellsOf(workspaceId, dims, generation);
          if (set) lists.push(cellsToRead(set, vector, state.cells, opts));
        }
        // The two generations' cells (while cells are rebuilt) interleaved, nearest first.
        const cells: number[] = [];
        for (let i = 0; i < Math.max(0, ...lists.map((l) => l.length)); i++)
          for (const l of lists) if (i < l.length) cells.push(l[i]);
        // sqlite-vec answers a KNN query for each value of `cell IN`, k from each.
        const scan = stmt(
          `SELECT rowid AS id, distance FROM ${table} WHERE embedding MATCH vec_quantize_binary(?) AND workspace_id = ? AND cell IN (SELECT value FROM json_each(?)) AND k = ? AND distance < ?`,
        );
        rows = [];
        // Cell 0 only while it holds passages (a build under way or cut off).
        const unplaced = hasUnplaced.get(workspaceId, dims) ? [0] : [];
        const groups = [
          [...unplaced, ...cells.slice(0, GROUPS[0])],
          cells.slice(GROUPS[0], GROUPS[0] + GROUPS[1]),
          cells.slice(GROUPS[0] + GROUPS[1]),
        ];
        groups.forEach((group, g) => {
          if (!group.length) return;
          // Only what would make the cut: closer than the farthest candidate kept so far.
          const bound = rows.length >= candidates ? rows[candidates - 1].distance : Number.MAX_VALUE;
          rows.push(
            ...(scan.all(
              vector,
              workspaceId,
              JSON.stringify(group),
              g < groups.length - 1 ? candidates : PER_CELL,
              bound,
            ) as typeof rows),
          );
          rows.sort((a, b) => a.distance - b.distance);
          rows.length = Math.min(rows.length, candidates);
        });
        rows.length = Math.min(rows.length, candidates);
      }
      return rerank.all({
        vector,
        ids: JSON.stringify(rows.map((r) => Number(r.id))),
        ws: workspaceId,
        model,
        k,
      }) as PassageHit[];
    },
    /** The same by comparing every vector: the baseline the benchmark measures recall against. */
    nearestExact(workspaceId: string, vector: Float32Array, k: number, model: string): PassageHit[] {
      return exact.all({ vector, ws: workspaceId, dims: vector.length, model, k }) as PassageHit[];
    },
    modelOf(source: "note" | "article", sourceId: string): string | null {
      return (modelOf.get(source, sourceId) as string | undefined) ?? null;
    },
  };
}

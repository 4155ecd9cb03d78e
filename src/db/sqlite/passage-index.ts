// The build side of a workspace's vector index on SQLite (pipeline/vector-index.ts
// drives it a page at a time, so that requests go on between pages): which indexes are
// due, one build at a time per index, sampling, storing a generation of cells, moving
// passages to them, and finishing. Search and writes are in passages.ts.
import type { Db } from "../open.js";
import { INDEX_AT, PLACE_AT, REBUILD_GROWTH } from "../cells.js";
import { asVector, passageCodes, type PassageCodes } from "./passage-codes.js";
import type { Synchronous } from "../stores/synchronous.js";
import type { IndexStatus, IndexTarget, PassageIndexStore } from "../stores/passage-index-store.js";

/** Passages have grown well past what the cells were trained on. */
const RETRAIN_DUE = `i.passages >= i.trained_on * ${REBUILD_GROWTH}`;
/**
 * An index (passage_indexes i) whose cells hold an older generation's passages still
 * (a build cut off), or whose cell 0 holds at least PLACE_AT passages written since the
 * cells were made: both are finished by moving passages. Passages waiting in cell 0 of
 * an index due new cells are left to the new cells. INDEXED BY: statistics gathered
 * while every passage was in cell 0 would have the planner scan the whole table for a
 * cell 0 that is nearly empty by now.
 */
const UNFINISHED = `i.generation > 0 AND (
  EXISTS (SELECT 1 FROM passage_centroids c WHERE c.workspace_id = i.workspace_id AND c.dims = i.dims AND c.generation < i.generation)
  OR (NOT (${RETRAIN_DUE}) AND (SELECT count(*) FROM (SELECT 1 FROM passage_members m INDEXED BY passage_members_cell_idx
        WHERE m.workspace_id = i.workspace_id AND m.dims = i.dims AND m.cell = 0 LIMIT ${PLACE_AT})) >= ${PLACE_AT}))`;

export function passageIndexRepo(
  db: Db,
  opts: { indexAt?: number } = {},
  shared: PassageCodes = passageCodes(db.$client),
): Synchronous<PassageIndexStore> {
  const sqlite = db.$client;
  const indexAt = opts.indexAt ?? INDEX_AT;
  const { stmt, codes, cellFor, insertCode, deleteCode } = shared;
  return {
    /**
     * Workspaces (or the one given) whose passages of a size are due to be partitioned,
     * or repartitioned, or whose last build stopped before it had moved every passage.
     */
    buildsDue(workspaceId?: string): IndexTarget[] {
      return stmt(
        `SELECT workspace_id AS workspaceId, dims FROM passage_indexes i
         WHERE ((passages >= ? AND (generation = 0 OR ${RETRAIN_DUE}))
           OR (${UNFINISHED}))
         ${workspaceId ? " AND workspace_id = ?" : ""}`,
      ).all(indexAt, ...(workspaceId ? [workspaceId] : [])) as IndexTarget[];
    },
    /**
     * A build that stopped (a crash, a restart) after storing its cells but before
     * moving every passage to them: its generation and first cell, to finish it.
     */
    unfinishedBuild(target: IndexTarget): { generation: number; firstCell: number } | null {
      const row = stmt(
        `SELECT i.generation, (SELECT min(cell) FROM passage_centroids c WHERE c.workspace_id = i.workspace_id AND c.dims = i.dims AND c.generation = i.generation) AS firstCell
         FROM passage_indexes i WHERE i.workspace_id = ? AND i.dims = ? AND ${UNFINISHED}`,
      ).get(target.workspaceId, target.dims) as { generation: number; firstCell: number | null } | undefined;
      return row?.firstCell ? { generation: row.generation, firstCell: row.firstCell } : null;
    },
    /** Takes a build on, unless another is under way (one not heard from for `leaseMs` is taken over). */
    claimBuild(target: IndexTarget, now: number, leaseMs: number): boolean {
      return (
        stmt(
          "UPDATE passage_indexes SET building_since = ?, build_progress = 0 WHERE workspace_id = ? AND dims = ? AND (building_since IS NULL OR building_since < ?)",
        ).run(now, target.workspaceId, target.dims, now - leaseMs).changes === 1
      );
    },
    /** Keeps a build's claim alive and says how far it is. */
    buildProgress(target: IndexTarget, now: number, progress: number) {
      stmt("UPDATE passage_indexes SET building_since = ?, build_progress = ? WHERE workspace_id = ? AND dims = ?").run(
        now,
        progress,
        target.workspaceId,
        target.dims,
      );
    },
    passageCount(target: IndexTarget): number {
      return (
        (stmt("SELECT passages FROM passage_indexes WHERE workspace_id = ? AND dims = ?")
          .pluck()
          .get(target.workspaceId, target.dims) as number | undefined) ?? 0
      );
    },
    /** A page of a workspace's passage ids of a size, in (cell, id) order, after the one given. */
    memberIdsAfter(
      target: IndexTarget,
      after: { cell: number; passageId: number } | null,
      limit: number,
    ): { cell: number; passageId: number }[] {
      return stmt(
        `SELECT cell, passage_id AS passageId FROM passage_members WHERE workspace_id = ? AND dims = ? AND (cell, passage_id) > (?, ?)
         ORDER BY cell, passage_id LIMIT ?`,
      ).all(target.workspaceId, target.dims, after?.cell ?? -1, after?.passageId ?? -1, limit) as {
        cell: number;
        passageId: number;
      }[];
    },
    /** The vectors of some passages, for training. */
    vectorsOf(ids: number[]): Float32Array[] {
      return (
        stmt("SELECT embedding FROM passages WHERE id IN (SELECT value FROM json_each(?))")
          .pluck()
          .all(JSON.stringify(ids)) as Buffer[]
      ).map((b) => Float32Array.from(asVector(b)));
    },
    /** Stores a new generation of cells; from now on new passages go to them. Returns the generation and its first cell id. */
    installCells(
      target: IndexTarget,
      centroids: Float32Array[],
      trainedOn: number,
    ): { generation: number; firstCell: number } {
      return sqlite.transaction(() => {
        const { generation } = stmt("SELECT generation FROM passage_indexes WHERE workspace_id = ? AND dims = ?").get(
          target.workspaceId,
          target.dims,
        ) as { generation: number };
        // Cell ids only grow: each generation's are above every cell before it.
        const firstCell =
          (stmt("SELECT coalesce(max(cell), 0) + 1 FROM passage_centroids").pluck().get() as number) ?? 1;
        const insert = stmt(
          "INSERT INTO passage_centroids (cell, workspace_id, dims, generation, centroid) VALUES (?, ?, ?, ?, ?)",
        );
        centroids.forEach((c, i) =>
          insert.run(
            firstCell + i,
            target.workspaceId,
            target.dims,
            generation + 1,
            Buffer.from(c.buffer, c.byteOffset, c.byteLength),
          ),
        );
        stmt(
          "UPDATE passage_indexes SET generation = ?, cells = ?, trained_on = ? WHERE workspace_id = ? AND dims = ?",
        ).run(generation + 1, centroids.length, trainedOn, target.workspaceId, target.dims);
        return { generation: generation + 1, firstCell };
      })();
    },
    /**
     * Moves up to `limit` passages not yet in a cell of `generation` (their cell id is
     * below its first) to their nearest cell of it. Returns how many moved: 0 when done.
     */
    moveToCells(target: IndexTarget, generation: number, firstCell: number, limit: number): number {
      const { workspaceId, dims } = target;
      return sqlite.transaction(() => {
        const rows = stmt(
          `SELECT m.passage_id AS id, p.embedding FROM passage_members m INDEXED BY passage_members_cell_idx JOIN passages p ON p.id = m.passage_id
           WHERE m.workspace_id = ? AND m.dims = ? AND m.cell < ? LIMIT ?`,
        ).all(workspaceId, dims, firstCell, limit) as { id: number; embedding: Buffer }[];
        const setMember = stmt("UPDATE passage_members SET cell = ? WHERE passage_id = ?");
        for (const r of rows) {
          const vector = asVector(r.embedding);
          const cell = cellFor(workspaceId, vector, generation);
          setMember.run(cell, r.id);
          deleteCode(dims, r.id);
          insertCode(dims, r.id, workspaceId, cell, vector);
        }
        return rows.length;
      })();
    },
    /** Ends a build: the generations before this one are dropped, and the claim released. */
    finishBuild(target: IndexTarget, generation: number) {
      sqlite.transaction(() => {
        stmt("DELETE FROM passage_centroids WHERE workspace_id = ? AND dims = ? AND generation < ?").run(
          target.workspaceId,
          target.dims,
          generation,
        );
        stmt(
          "UPDATE passage_indexes SET building_since = NULL, build_progress = NULL WHERE workspace_id = ? AND dims = ?",
        ).run(target.workspaceId, target.dims);
      })();
      // The build changed where the code table's chunks are (every passage moved out of
      // cell 0): statistics gathered before would have the planner scan all of them
      // for cell 0. A few thousand rows: quick.
      sqlite.exec(`ANALYZE ${codes(target.dims)}_chunks`);
    },
    /** Gives a build's claim back (after a failure), so that it may be tried again. */
    releaseBuild(target: IndexTarget) {
      stmt(
        "UPDATE passage_indexes SET building_since = NULL, build_progress = NULL WHERE workspace_id = ? AND dims = ?",
      ).run(target.workspaceId, target.dims);
    },
    /** Every workspace's index, largest first, for `notula admin reindex`. */
    indexStatus(): IndexStatus[] {
      return (
        stmt(
          "SELECT workspace_id AS workspaceId, dims, passages, cells, generation, building_since IS NOT NULL AS building, build_progress AS progress FROM passage_indexes ORDER BY passages DESC",
        ).all() as (Omit<IndexStatus, "building"> & { building: number })[]
      ).map((r) => ({ ...r, building: Boolean(r.building) }));
    },
  };
}

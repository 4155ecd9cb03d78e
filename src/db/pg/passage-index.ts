// The build side of a workspace's vector cells on PostgreSQL without pgvector, for the
// same background build as SQLite's (pipeline/vector-index.ts): the vectors of a
// workspace past the threshold are partitioned into cells, and a search screens the
// bits of the cells nearest its query (passages.ts). New vectors are written to cell 0
// and placed in their cells by the build in batches of PLACE_AT, so that writing a
// note's passages stays one statement; a search reads cell 0 too. With pgvector, its
// HNSW index keeps itself: nothing is ever due.
import { sql } from "drizzle-orm";
import { nearestIndex } from "../cells.js";
import { INDEX_AT, PLACE_AT, REBUILD_GROWTH } from "../cells.js";
import type { Transaction } from "../repos/portable.js";
import type { CellPosition, IndexStatus, IndexTarget, PassageIndexStore } from "../stores/passage-index-store.js";
import type { PgCellSets } from "./cell-sets.js";
import type { PgQueryable } from "./open.js";
import { bytesVector } from "./vector-bytes.js";

/** Vectors have grown well past what the cells were trained on. */
const retrainDue = sql`i.passages >= i.trained_on * ${REBUILD_GROWTH}`;
/**
 * An index whose cells hold older generations' vectors still (a build cut off), or
 * whose cell 0 holds at least `waiting` vectors: both are finished by moving vectors.
 * Vectors waiting in cell 0 of an index due new cells are left to the new cells.
 */
const unfinished = (waiting: number) => sql`i.generation > 0 AND (
  EXISTS (SELECT 1 FROM passage_centroids c WHERE c.workspace_id = i.workspace_id AND c.dims = i.dims AND c.generation < i.generation)
  OR (NOT (${retrainDue}) AND (SELECT count(*) FROM (SELECT 1 FROM passage_vectors v
        WHERE v.workspace_id = i.workspace_id AND v.cell = 0 AND length(v.code) = i.dims LIMIT ${waiting}) w) >= ${waiting}))`;

export function pgPassageIndexRepo(
  db: PgQueryable,
  transaction: Transaction,
  cellSets: PgCellSets,
  opts: { vectorIndex?: boolean; indexAt?: number } = {},
): PassageIndexStore {
  const indexAt = opts.indexAt ?? INDEX_AT;
  const rows = async <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) =>
    (await db.execute<T>(query)).rows;
  const release = async (target: IndexTarget) => {
    await db.execute(
      sql`UPDATE passage_indexes SET building_since = NULL, build_progress = NULL
          WHERE workspace_id = ${target.workspaceId} AND dims = ${target.dims}`,
    );
  };
  return {
    async buildsDue(workspaceId?: string): Promise<IndexTarget[]> {
      if (opts.vectorIndex) return [];
      return rows<{ workspaceId: string; dims: number }>(
        sql`SELECT i.workspace_id AS "workspaceId", i.dims FROM passage_indexes i
            WHERE ((i.passages >= ${indexAt} AND (i.generation = 0 OR ${retrainDue}))
                   OR (${unfinished(PLACE_AT)}))
            ${workspaceId ? sql`AND i.workspace_id = ${workspaceId}` : sql``}`,
      );
    },
    async unfinishedBuild(target) {
      const [row] = await rows<{ generation: number; firstCell: number | null }>(
        sql`SELECT i.generation, (SELECT min(cell) FROM passage_centroids c
              WHERE c.workspace_id = i.workspace_id AND c.dims = i.dims AND c.generation = i.generation) AS "firstCell"
            FROM passage_indexes i
            WHERE i.workspace_id = ${target.workspaceId} AND i.dims = ${target.dims} AND ${unfinished(1)}`,
      );
      return row?.firstCell ? { generation: row.generation, firstCell: row.firstCell } : null;
    },
    async claimBuild(target, now, leaseMs) {
      const { rowCount } = await db.execute(
        sql`UPDATE passage_indexes SET building_since = ${now}, build_progress = 0
            WHERE workspace_id = ${target.workspaceId} AND dims = ${target.dims}
              AND (building_since IS NULL OR building_since < ${now - leaseMs})`,
      );
      return rowCount === 1;
    },
    async buildProgress(target, now, progress) {
      await db.execute(
        sql`UPDATE passage_indexes SET building_since = ${now}, build_progress = ${progress}
            WHERE workspace_id = ${target.workspaceId} AND dims = ${target.dims}`,
      );
    },
    async passageCount(target) {
      const [row] = await rows<{ passages: number }>(
        sql`SELECT passages FROM passage_indexes WHERE workspace_id = ${target.workspaceId} AND dims = ${target.dims}`,
      );
      return row?.passages ?? 0;
    },
    async memberIdsAfter(target, after, limit): Promise<CellPosition[]> {
      const page = await rows<{ cell: number; passageId: string }>(
        sql`SELECT cell, passage_id AS "passageId" FROM passage_vectors
            WHERE workspace_id = ${target.workspaceId} AND (cell, passage_id) > (${after?.cell ?? -1}, ${after?.passageId ?? -1})
              AND length(code) = ${target.dims}
            ORDER BY cell, passage_id LIMIT ${limit}`,
      );
      return page.map((r) => ({ cell: r.cell, passageId: Number(r.passageId) }));
    },
    async vectorsOf(ids) {
      const found = await rows<{ embedding: Buffer }>(
        sql`SELECT embedding FROM passage_vectors WHERE passage_id = ANY(${sql.param(ids)}::bigint[])`,
      );
      return found.map((r) => bytesVector(r.embedding));
    },
    installCells(target, centroids, trainedOn) {
      return transaction(async () => {
        const [index] = await rows<{ generation: number }>(
          sql`SELECT generation FROM passage_indexes
              WHERE workspace_id = ${target.workspaceId} AND dims = ${target.dims} FOR UPDATE`,
        );
        if (!index) throw new Error(`No vectors of ${target.dims} dimensions in workspace ${target.workspaceId}.`);
        const generation = index.generation + 1;
        // Cell ids come from a sequence: each generation's are above every cell before it.
        const literals = centroids.map((c) => `{${Array.from(c).join(",")}}`);
        const cells = await rows<{ cell: number }>(
          sql`INSERT INTO passage_centroids (workspace_id, dims, generation, centroid)
              SELECT ${target.workspaceId}, ${target.dims}, ${generation}, c::real[]
              FROM unnest(${sql.param(literals)}::text[]) WITH ORDINALITY AS t(c, n) ORDER BY n
              RETURNING cell`,
        );
        await db.execute(
          sql`UPDATE passage_indexes SET generation = ${generation}, cells = ${centroids.length}, trained_on = ${trainedOn}
              WHERE workspace_id = ${target.workspaceId} AND dims = ${target.dims}`,
        );
        return { generation, firstCell: Math.min(...cells.map((c) => c.cell)) };
      });
    },
    async moveToCells(target, generation, firstCell, limit) {
      const set = await cellSets.generation(target.workspaceId, target.dims, generation);
      if (!set) throw new Error(`The cells of generation ${generation} are gone: a newer build replaced them.`);
      const waiting = await rows<{ id: string; embedding: Buffer }>(
        sql`SELECT passage_id AS id, embedding FROM passage_vectors
            WHERE workspace_id = ${target.workspaceId} AND cell < ${firstCell} AND length(code) = ${target.dims}
            LIMIT ${limit}`,
      );
      if (!waiting.length) return 0;
      const ids = waiting.map((r) => r.id);
      const cells = waiting.map((r) => set.ids[nearestIndex(set, bytesVector(r.embedding))]);
      // A vector replaced meanwhile is gone, or new in cell 0 (and moved on a later page).
      await db.execute(
        sql`UPDATE passage_vectors v SET cell = u.cell
            FROM unnest(${sql.param(ids)}::bigint[], ${sql.param(cells)}::integer[]) AS u(id, cell)
            WHERE v.passage_id = u.id AND v.cell < ${firstCell}`,
      );
      return waiting.length;
    },
    async finishBuild(target, generation) {
      await transaction(async () => {
        await db.execute(
          sql`DELETE FROM passage_centroids
              WHERE workspace_id = ${target.workspaceId} AND dims = ${target.dims} AND generation < ${generation}`,
        );
        await release(target);
      });
      await cellSets.refresh(target.workspaceId, target.dims);
    },
    releaseBuild: release,
    async indexStatus(): Promise<IndexStatus[]> {
      return rows<IndexStatus & Record<string, unknown>>(
        sql`SELECT workspace_id AS "workspaceId", dims, passages, cells, generation,
                   building_since IS NOT NULL AS building, build_progress AS progress
            FROM passage_indexes ORDER BY passages DESC`,
      );
    },
  };
}

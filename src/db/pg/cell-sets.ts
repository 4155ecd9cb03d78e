// The centroids of a workspace's vector cells on PostgreSQL (without pgvector), kept in
// memory while their generation is current: a search compares its query with every one
// to choose the cells it reads, and a build places each vector by them. A search's
// statement reads the workspace's generation too, so a replica whose centroids are
// stale (another replica's build installed new ones) sees it at once and reads them
// again (passages.ts).
import { sql } from "drizzle-orm";
import { cellSet, type CellSet } from "../cells.js";
import type { PgQueryable } from "./open.js";

export interface CellState {
  /** The newest generation of cells; 0 while the vectors are not partitioned. */
  generation: number;
  cells: number;
  /** The newest generation's centroids. */
  newest: CellSet | null;
  /** The generation before, while a build is moving vectors from its cells. */
  previous: CellSet | null;
}

type CentroidRow = { cell: number; generation: number; centroid: number[] };

export type PgCellSets = ReturnType<typeof pgCellSets>;

export function pgCellSets(db: PgQueryable) {
  const states = new Map<string, CellState>();
  const key = (workspaceId: string, dims: number) => `${workspaceId}\0${dims}`;

  async function load(workspaceId: string, dims: number): Promise<CellState> {
    const { rows } = await db.execute<{ generation: number; cells: number }>(
      sql`SELECT generation, cells FROM passage_indexes WHERE workspace_id = ${workspaceId} AND dims = ${dims}`,
    );
    const generation = rows[0]?.generation ?? 0;
    const sets: (CellSet | null)[] = [null, null];
    if (generation > 0) {
      const centroids = await db.execute<CentroidRow>(
        sql`SELECT cell, generation, centroid FROM passage_centroids
            WHERE workspace_id = ${workspaceId} AND dims = ${dims} AND generation >= ${generation - 1}
            ORDER BY generation DESC, cell`,
      );
      [generation, generation - 1].forEach((g, i) => {
        const group = centroids.rows.filter((r) => r.generation === g);
        if (group.length)
          sets[i] = cellSet(
            group.map((r) => r.cell),
            group.map((r) => Float32Array.from(r.centroid)),
          );
      });
    }
    const state = { generation, cells: rows[0]?.cells ?? 0, newest: sets[0], previous: sets[1] };
    states.set(key(workspaceId, dims), state);
    return state;
  }

  return {
    /** The workspace's cells as last read by this process (read now if never). */
    current: (workspaceId: string, dims: number): Promise<CellState> | CellState =>
      states.get(key(workspaceId, dims)) ?? load(workspaceId, dims),
    /** Read again: the generation changed, here or on another replica. */
    refresh: load,
    /** The centroids of one generation, read again unless they are the current ones here. */
    async generation(workspaceId: string, dims: number, generation: number): Promise<CellSet | null> {
      const known = states.get(key(workspaceId, dims));
      const state = known?.generation === generation ? known : await load(workspaceId, dims);
      return state.generation === generation ? state.newest : null;
    },
  };
}

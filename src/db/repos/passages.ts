// Passages and their vectors. The vectors sit in a sqlite-vec table per dimension,
// partitioned by workspace, so a search only ever scans one workspace.
import { and, eq } from "drizzle-orm";
import type { Db } from "../open.js";
import { passages } from "../schema/index.js";

export interface PassageInput {
  text: string;
  timestampSec: number | null;
}

export interface PassageHit {
  source: "note" | "article";
  sourceId: string;
  text: string;
  timestampSec: number | null;
  distance: number;
}

export function passageRepo(db: Db) {
  const created = new Set<number>();
  function vectorTable(dims: number): string {
    if (!Number.isInteger(dims) || dims < 1 || dims > 8192) throw new Error(`Unsupported embedding size ${dims}.`);
    const name = `passage_vectors_${dims}`;
    if (!created.has(dims)) {
      db.$client.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${name} USING vec0(workspace_id text partition key, embedding float[${dims}] distance_metric=cosine)`);
      created.add(dims);
    }
    return name;
  }

  function remove(source: "note" | "article", sourceId: string) {
    const old = db.select({ id: passages.id, dims: passages.dims }).from(passages).where(and(eq(passages.source, source), eq(passages.sourceId, sourceId))).all();
    for (const p of old) db.$client.prepare(`DELETE FROM ${vectorTable(p.dims)} WHERE rowid = ?`).run(BigInt(p.id));
    db.delete(passages).where(and(eq(passages.source, source), eq(passages.sourceId, sourceId))).run();
  }

  return {
    /** Replaces a note's or article's passages and vectors in one transaction. */
    replace(source: "note" | "article", sourceId: string, workspaceId: string, items: PassageInput[], vectors: Float32Array[], model: string) {
      db.$client.transaction(() => {
        remove(source, sourceId);
        if (!items.length) return;
        const table = vectorTable(vectors[0].length);
        const insertVector = db.$client.prepare(`INSERT INTO ${table}(rowid, workspace_id, embedding) VALUES (?, ?, ?)`);
        items.forEach((item, position) => {
          const { id } = db
            .insert(passages)
            .values({ workspaceId, source, sourceId, position, text: item.text, timestampSec: item.timestampSec, model, dims: vectors[position].length })
            .returning({ id: passages.id })
            .get();
          insertVector.run(BigInt(id), workspaceId, vectors[position]);
        });
      })();
    },
    remove(source: "note" | "article", sourceId: string) {
      db.$client.transaction(() => remove(source, sourceId))();
    },
    /** The nearest passages of a workspace, from vectors made by `model`. */
    nearest(workspaceId: string, vector: Float32Array, k: number, model: string): PassageHit[] {
      const table = vectorTable(vector.length);
      return db.$client
        .prepare(
          `SELECT p.source, p.source_id AS sourceId, p.text, p.timestamp_sec AS timestampSec, v.distance
           FROM (SELECT rowid, distance FROM ${table} WHERE embedding MATCH ? AND workspace_id = ? AND k = ?) v
           JOIN passages p ON p.id = v.rowid
           WHERE p.model = ?
           ORDER BY v.distance`,
        )
        .all(vector, workspaceId, k, model) as PassageHit[];
    },
    modelOf(source: "note" | "article", sourceId: string): string | null {
      return db.select({ model: passages.model }).from(passages).where(and(eq(passages.source, source), eq(passages.sourceId, sourceId))).get()?.model ?? null;
    },
  };
}

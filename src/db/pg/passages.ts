// Passages and their vectors on PostgreSQL. The vectors are real[] rows searched
// exactly (cosine distance over one workspace's passages); the SQLite repository
// answers the same with sqlite-vec.
import { and, eq, sql } from "drizzle-orm";
import type { PassageHit, PassageInput } from "../repos/passages.js";
import type { Transaction } from "../repos/portable.js";
import type { PgDb } from "./open.js";
import { pgSchema } from "./schema.js";

const { passages } = pgSchema;

export function pgPassageRepo(db: PgDb, transaction: Transaction) {
  const remove = async (source: "note" | "article", sourceId: string) => {
    // passage_vectors rows go with their passages (ON DELETE CASCADE).
    await db.delete(passages).where(and(eq(passages.source, source), eq(passages.sourceId, sourceId)));
  };
  return {
    /** Replaces a note's or article's passages and vectors in one transaction. */
    replace(source: "note" | "article", sourceId: string, workspaceId: string, items: PassageInput[], vectors: Float32Array[], model: string): Promise<void> {
      return transaction(async () => {
        await remove(source, sourceId);
        if (!items.length) return;
        const ids = await db
          .insert(passages)
          .values(items.map((item, position) => ({ workspaceId, source, sourceId, position, text: item.text, timestampSec: item.timestampSec, model, dims: vectors[position].length })))
          .returning({ id: passages.id, position: passages.position });
        for (const { id, position } of ids)
          await db.execute(sql`INSERT INTO passage_vectors (passage_id, embedding) VALUES (${id}, ${`{${Array.from(vectors[position]).join(",")}}`}::real[])`);
      });
    },
    remove: (source: "note" | "article", sourceId: string) => transaction(() => remove(source, sourceId)),
    /** The nearest passages of a workspace, from vectors made by `model`, by cosine distance. */
    async nearest(workspaceId: string, vector: Float32Array, k: number, model: string): Promise<PassageHit[]> {
      const query = `{${Array.from(vector).join(",")}}`;
      const { rows } = await db.execute<{ source: PassageHit["source"]; sourceId: string; text: string; timestampSec: string | null; distance: string }>(sql`
        SELECT p.source, p.source_id AS "sourceId", p.text, p.timestamp_sec AS "timestampSec",
               1 - d.dot / nullif(d.norms, 0) AS distance
        FROM passages p JOIN passage_vectors v ON v.passage_id = p.id,
        LATERAL (SELECT sum(a * b) AS dot, sqrt(sum(a * a)) * sqrt(sum(b * b)) AS norms FROM unnest(v.embedding, ${query}::real[]) AS t(a, b)) d
        WHERE p.workspace_id = ${workspaceId} AND p.model = ${model} AND p.dims = ${vector.length}
        ORDER BY distance, p.id LIMIT ${k}`);
      return rows.map((r) => ({ ...r, timestampSec: r.timestampSec === null ? null : Number(r.timestampSec), distance: Number(r.distance) }));
    },
    /** The same: PostgreSQL compares every vector already (no pgvector index yet). */
    nearestExact(workspaceId: string, vector: Float32Array, k: number, model: string): Promise<PassageHit[]> {
      return this.nearest(workspaceId, vector, k, model);
    },
    async modelOf(source: "note" | "article", sourceId: string): Promise<string | null> {
      const [row] = await db.select({ model: passages.model }).from(passages).where(and(eq(passages.source, source), eq(passages.sourceId, sourceId))).limit(1);
      return row?.model ?? null;
    },
  };
}

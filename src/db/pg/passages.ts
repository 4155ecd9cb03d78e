// Passages and their vectors on PostgreSQL. The vectors are real[] rows, each with its
// signs as bits (`code`); where pgvector is enabled (vector-index.ts) each also has a
// `vector` copy, searched through an HNSW index per embedding size. Without it, a search
// screens a workspace's newest passages by their bits and compares the closest exactly,
// as the SQLite repository does within its cells.
import { and, eq, sql, type SQL } from "drizzle-orm";
import { ensureHnswIndex } from "./vector-index.js";
import type { PassageHit, PassageSet, PassageStore } from "../stores/passage-store.js";
import type { Transaction } from "../repos/portable.js";
import type { PgQueryable } from "./open.js";
import { pgSchema } from "./schema.js";

const { passages } = pgSchema;

/**
 * Without pgvector, how many of a workspace's passages (the newest) a meaning-based
 * search screens by their bits (about 3,300 hour-long meetings): a bounded cost (about a
 * microsecond a passage, some 50 ms) instead of one that grows with every meeting; older
 * meetings are then found by their words. pgvector's index has no such bound.
 */
export const SCREENED_PASSAGES = 50_000;

/** How many of the screened passages, the closest by their bits, are compared exactly for k results. */
const rerankCount = (k: number) => Math.max(100, k * 4);

/** A vector's signs, one bit per dimension (as sqlite-vec's vec_quantize_binary has them). */
export const signBits = (vector: ArrayLike<number>): string => Array.from(vector, (x) => (x > 0 ? "1" : "0")).join("");

type Row = {
  source: PassageHit["source"];
  sourceId: string;
  text: string;
  timestampSec: string | null;
  distance: string;
};
const toHits = (rows: Row[]): PassageHit[] =>
  rows.map((r) => ({
    ...r,
    timestampSec: r.timestampSec === null ? null : Number(r.timestampSec),
    distance: Number(r.distance),
  }));

export function pgPassageRepo(
  db: PgQueryable,
  transaction: Transaction,
  opts: { vectorIndex?: boolean; screenedPassages?: number } = {},
): PassageStore {
  const indexed = Boolean(opts.vectorIndex);
  const scanned = opts.screenedPassages ?? SCREENED_PASSAGES;
  /** Sizes whose HNSW index this process has made sure of. */
  const sizes = new Set<number>();
  async function ensureIndexFor(dims: number) {
    if (!indexed || sizes.has(dims) || dims > 2000) return;
    await ensureHnswIndex((statement) => db.execute(sql.raw(statement)), dims);
    sizes.add(dims);
  }
  /**
   * The `candidates` (a query of passage ids) ranked by their exact cosine distance to
   * `vector`: the nearest k, of this embedding size.
   */
  async function rankExactly(candidates: SQL, vector: Float32Array, k: number): Promise<PassageHit[]> {
    const query = `{${Array.from(vector).join(",")}}`;
    const { rows } = await db.execute<Row>(sql`
      WITH candidates AS (${candidates})
      SELECT p.source, p.source_id AS "sourceId", p.text, p.timestamp_sec AS "timestampSec",
             1 - d.dot / nullif(d.norms, 0) AS distance
      FROM candidates c JOIN passages p ON p.id = c.id AND p.dims = ${vector.length}
      JOIN passage_vectors v ON v.passage_id = c.id,
      LATERAL (SELECT sum(a * b) AS dot, sqrt(sum(a * a)) * sqrt(sum(b * b)) AS norms FROM unnest(v.embedding, ${query}::real[]) AS t(a, b)) d
      ORDER BY distance, p.id LIMIT ${k}`);
    return toHits(rows);
  }

  /** Every one of the newest passages compared exactly: the baseline for recall. */
  const nearestExact = (workspaceId: string, vector: Float32Array, k: number, model: string) =>
    rankExactly(
      sql`SELECT id FROM passages WHERE workspace_id = ${workspaceId} AND model = ${model} AND dims = ${vector.length}
          ORDER BY id DESC LIMIT ${scanned}`,
      vector,
      k,
    );

  /**
   * The fallback without pgvector: the newest passages screened by bits, the closest
   * compared exactly. The screen walks the workspace's newest bits in
   * passage_vectors_screen_idx; the text and the whole vector are read only for the few
   * that pass. The screen's order is made total by the id.
   */
  const nearestScreened = (workspaceId: string, vector: Float32Array, k: number, model: string) =>
    rankExactly(
      sql`SELECT s.passage_id AS id FROM (
            SELECT passage_id, code FROM passage_vectors
            WHERE workspace_id = ${workspaceId} AND model = ${model}
            ORDER BY passage_id DESC LIMIT ${scanned}) s
          -- A size test in WHERE would be estimated as rare and cost the index's order;
          -- bits of another size (never, for one model) sort last and are dropped by rankExactly.
          ORDER BY CASE WHEN length(s.code) = ${vector.length} THEN bit_count(s.code # ${signBits(vector)}::bit varying) END,
                   s.passage_id
          LIMIT ${rerankCount(k)}`,
      vector,
      k,
    );

  const remove = async (source: "note" | "article", sourceId: string) => {
    // passage_vectors rows go with their passages (ON DELETE CASCADE).
    await db.delete(passages).where(and(eq(passages.source, source), eq(passages.sourceId, sourceId)));
  };
  const repo: PassageStore = {
    /**
     * Replaces a note's or article's passages and vectors in one statement, atomic by
     * itself: its old passages go (their vectors with them, by cascade), and the new
     * ones come in with their vectors. Every list is bound as one array parameter, so
     * that the statement's text is the same for any number of passages.
     */
    async replace(source, sourceId, workspaceId, items, vectors, model) {
      // Before the statement: the first vector of a new size builds its index (once).
      if (vectors.length) await ensureIndexFor(vectors[0].length);
      const list = (values: unknown[]) => sql.param(values);
      const texts = list(items.map((item) => item.text));
      const stamps = list(items.map((item) => item.timestampSec));
      const literals = list(items.map((_, i) => `{${Array.from(vectors[i]).join(",")}}`));
      const codes = list(items.map((_, i) => signBits(vectors[i])));
      const vectorColumns = indexed
        ? sql`(passage_id, workspace_id, model, embedding, code, dims, embedding_v)`
        : sql`(passage_id, workspace_id, model, embedding, code)`;
      const vectorValues = indexed
        ? sql`, array_length(i.e::real[], 1), ('[' || btrim(i.e, '{}') || ']')::vector`
        : sql``;
      await db.execute(sql`
        WITH gone AS (DELETE FROM passages WHERE source = ${source} AND source_id = ${sourceId}),
        items AS (
          SELECT t.text, t.ts, t.e, t.c, (t.n - 1)::integer AS position
          FROM unnest(${texts}::text[], ${stamps}::bigint[], ${literals}::text[], ${codes}::text[])
               WITH ORDINALITY AS t(text, ts, e, c, n)),
        added AS (
          INSERT INTO passages (workspace_id, source, source_id, position, text, timestamp_sec, model, dims)
          SELECT ${workspaceId}, ${source}, ${sourceId}, i.position, i.text, i.ts, ${model},
                 cardinality(i.e::real[])
          FROM items i ORDER BY i.position
          RETURNING id, position)
        INSERT INTO passage_vectors ${vectorColumns}
        SELECT a.id, ${workspaceId}, ${model}, i.e::real[], i.c::bit varying${vectorValues}
        FROM added a JOIN items i ON i.position = a.position`);
    },
    /** Several notes' and articles' passages in one transaction. */
    async replaceMany(sets: PassageSet[]): Promise<void> {
      await transaction(async () => {
        for (const p of sets) await repo.replace(p.source, p.sourceId, p.workspaceId, p.items, p.vectors, p.model);
      });
    },
    remove: (source: "note" | "article", sourceId: string) => transaction(() => remove(source, sourceId)),
    /**
     * The nearest passages of a workspace, from vectors made by `model`, by cosine
     * distance: through the HNSW index where pgvector is enabled, else screened by bits.
     */
    async nearest(workspaceId: string, vector: Float32Array, k: number, model: string): Promise<PassageHit[]> {
      const dims = vector.length;
      if (!indexed || dims > 2000) return nearestScreened(workspaceId, vector, k, model);
      await ensureIndexFor(dims);
      const query = `[${Array.from(vector).join(",")}]`;
      const cast = sql.raw(`vector(${dims})`);
      return transaction(async () => {
        // The index walk goes on past ef_search entries until k rows of this workspace
        // and model are found (pgvector 0.8's iterative scan), so a small workspace
        // beside a large one still gets its k nearest.
        await db.execute(sql.raw("SET LOCAL hnsw.iterative_scan = relaxed_order"));
        await db.execute(sql.raw(`SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(40, k * 4))}`));
        const { rows } = await db.execute<Row>(sql`
          SELECT p.source, p.source_id AS "sourceId", p.text, p.timestamp_sec AS "timestampSec",
                 v.embedding_v::${cast} <=> ${query}::${cast} AS distance
          FROM passage_vectors v JOIN passages p ON p.id = v.passage_id
          WHERE v.dims = ${dims} AND p.workspace_id = ${workspaceId} AND p.model = ${model}
          ORDER BY v.embedding_v::${cast} <=> ${query}::${cast} LIMIT ${k}`);
        // relaxed_order may hand rows back slightly out of order.
        return toHits(rows).sort((a, b) => a.distance - b.distance);
      });
    },
    /** By comparing every vector of the newest passages exactly: the baseline for recall. */
    nearestExact,
    async modelOf(source: "note" | "article", sourceId: string): Promise<string | null> {
      const [row] = await db
        .select({ model: passages.model })
        .from(passages)
        .where(and(eq(passages.source, source), eq(passages.sourceId, sourceId)))
        .limit(1);
      return row?.model ?? null;
    },
  };
  return repo;
}

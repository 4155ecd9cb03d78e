// Passages and their vectors on PostgreSQL. The vectors are real[] rows, each with its
// signs as bits (`code`); where pgvector is enabled (vector-index.ts) each also has a
// `vector` copy, searched through an HNSW index per embedding size. Without it, a search
// screens by their bits the vectors of the workspace's cells nearest its query (once a
// build has made cells: passage-index.ts) and its newest vectors not yet placed in a
// cell, and compares the closest exactly, as the SQLite repository does.
import { sql } from "drizzle-orm";
import { cellsToRead, type ProbeOptions } from "../cells.js";
import { pgCellSets, type PgCellSets } from "./cell-sets.js";
import { ensureHnswIndex } from "./vector-index.js";
import { bytesVector, cosineDistance, vectorBytes, vectorText } from "./vector-bytes.js";
import { passageCache, type KnownPassage, type PassageCache } from "./passage-cache.js";
import type { PassageHit, PassageSet, PassageStore } from "../stores/passage-store.js";
import type { Transaction } from "../repos/portable.js";
import type { PgQueryable } from "./open.js";

/**
 * Without pgvector, how many of a workspace's vectors not yet in a cell (the newest) a
 * meaning-based search screens by their bits: a bounded cost (about a microsecond a
 * vector) while a workspace's first cells are being built. Once they are, new vectors
 * wait in cell 0 only until the next thousand are placed.
 */
export const SCREENED_PASSAGES = 50_000;

/**
 * How many of the screened passages, the closest by their bits, are compared exactly for
 * k results. Each is some 2 kB to read and send, where not yet kept (passage-cache.ts): at 100,000 passages of the benchmark's
 * sentence vectors, four times k found 99.4% of the exact nearest 63 (eight times, 99.9%,
 * at a third more time); 200 at least keeps a small k's answer whole on noisier vectors.
 */
const rerankCount = (k: number) => Math.max(200, k * 4);

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
  opts: {
    vectorIndex?: boolean;
    screenedPassages?: number;
    cellSets?: PgCellSets;
    passageCache?: PassageCache;
  } & ProbeOptions = {},
): PassageStore {
  const cellSets = opts.cellSets ?? pgCellSets(db);
  const indexed = Boolean(opts.vectorIndex);
  const scanned = opts.screenedPassages ?? SCREENED_PASSAGES;
  /** Sizes whose HNSW index this process has made sure of. */
  const sizes = new Set<number>();
  async function ensureIndexFor(dims: number) {
    if (!indexed || sizes.has(dims) || dims > 2000) return;
    await ensureHnswIndex((statement) => db.execute(sql.raw(statement)), dims);
    sizes.add(dims);
  }
  /** Passages compared exactly, by id: kept in memory as they are read (passage-cache.ts). */
  const known = opts.passageCache ?? passageCache();
  /**
   * The passages of `ids` with their vectors and texts: those kept in memory, and the
   * rest read in one statement (and kept).
   */
  async function passagesOf(ids: string[]): Promise<Map<string, KnownPassage>> {
    const out = new Map<string, KnownPassage>();
    const missing: string[] = [];
    for (const id of ids) {
      const p = known.get(id);
      if (p) out.set(id, p);
      else missing.push(id);
    }
    if (!missing.length) return out;
    const { rows } = await db.execute<{ id: string; embedding: Buffer } & Omit<Row, "distance">>(
      sql`SELECT p.id, p.source, p.source_id AS "sourceId", p.text, p.timestamp_sec AS "timestampSec", v.embedding
          FROM passages p JOIN passage_vectors v ON v.passage_id = p.id
          WHERE p.id = ANY(${sql.param(missing)}::bigint[])`,
    );
    for (const r of rows) {
      const p: KnownPassage = {
        vector: bytesVector(r.embedding),
        source: r.source,
        sourceId: r.sourceId,
        text: r.text,
        timestampSec: r.timestampSec === null ? null : Number(r.timestampSec),
      };
      known.set(String(r.id), p);
      out.set(String(r.id), p);
    }
    return out;
  }

  /**
   * The k nearest of some passages (their ids) by cosine distance to `vector`, compared
   * here. Passages of another size (never, for one model) are left out.
   */
  async function closest(ids: string[], vector: Float32Array, k: number): Promise<PassageHit[]> {
    const passages = await passagesOf(ids);
    return [...passages]
      .filter(([, p]) => p.vector.length === vector.length)
      .map(([id, p]) => ({ id, p, distance: cosineDistance(vector, p.vector) }))
      .sort((a, b) => a.distance - b.distance || Number(a.id) - Number(b.id))
      .slice(0, k)
      .map(({ p, distance }) => ({
        source: p.source,
        sourceId: p.sourceId,
        text: p.text,
        timestampSec: p.timestampSec,
        distance,
      }));
  }

  /** Every vector of the workspace compared exactly: the baseline for recall. */
  async function nearestExact(workspaceId: string, vector: Float32Array, k: number, model: string) {
    const { rows } = await db.execute<{ id: string }>(
      sql`SELECT p.id FROM passages p
          WHERE p.workspace_id = ${workspaceId} AND p.model = ${model} AND p.dims = ${vector.length}`,
    );
    return closest(
      rows.map((r) => String(r.id)),
      vector,
      k,
    );
  }

  /**
   * The fallback without pgvector: the vectors of the cells nearest the query (of the
   * newest generation and, while a build moves vectors, the one before) and the newest
   * of cell 0, screened by bits; the closest few hundred compared exactly. The screen's
   * statement also reads the workspace's generation: when it is not the one the cells
   * were chosen by (another replica's build made new ones), the cells are read again
   * and the search repeated.
   */
  async function nearestScreened(workspaceId: string, vector: Float32Array, k: number, model: string) {
    const dims = vector.length;
    let state = await cellSets.current(workspaceId, dims);
    for (let attempt = 0; ; attempt++) {
      const lists = [state.newest, state.previous].map((set) =>
        set ? cellsToRead(set, vector, state.cells, opts) : [],
      );
      const cells = [...lists[0], ...lists[1]];
      const { rows } = await db.execute<{ generation: number; id: string | null }>(sql`
        WITH screened AS (
          SELECT s.passage_id AS id FROM (
            (SELECT passage_id, code FROM passage_vectors
             WHERE workspace_id = ${workspaceId} AND cell = 0 AND model = ${model}
             ORDER BY passage_id DESC LIMIT ${scanned})
            UNION ALL
            (SELECT passage_id, code FROM passage_vectors
             WHERE workspace_id = ${workspaceId} AND cell = ANY(${sql.param(cells)}::integer[]) AND model = ${model})) s
          -- A size test in WHERE would be estimated as rare and cost the index's order;
          -- bits of another size (never, for one model) sort last and are dropped later.
          ORDER BY CASE WHEN length(s.code) = ${dims} THEN bit_count(s.code # ${signBits(vector)}::bit varying) END,
                   s.passage_id
          LIMIT ${rerankCount(k)})
        SELECT g.generation, s.id
        FROM (SELECT coalesce((SELECT generation FROM passage_indexes WHERE workspace_id = ${workspaceId} AND dims = ${dims}), 0) AS generation) g
        LEFT JOIN screened s ON true`);
      const generation = rows[0]?.generation ?? 0;
      if (generation === state.generation || attempt > 0)
        return closest(
          rows.flatMap((r) => (r.id !== null ? [String(r.id)] : [])),
          vector,
          k,
        );
      state = await cellSets.refresh(workspaceId, dims);
    }
  }

  /** A note's or article's passages go, with their vectors (by cascade), and leave the count. */
  const remove = async (source: "note" | "article", sourceId: string) => {
    await db.execute(sql`
      WITH gone AS (DELETE FROM passages WHERE source = ${source} AND source_id = ${sourceId} RETURNING workspace_id, dims)
      UPDATE passage_indexes i SET passages = greatest(0, i.passages - g.n)
      FROM (SELECT workspace_id, dims, count(*)::integer AS n FROM gone GROUP BY workspace_id, dims) g
      WHERE i.workspace_id = g.workspace_id AND i.dims = g.dims`);
  };
  const repo: PassageStore = {
    /**
     * Replaces a note's or article's passages and vectors in one statement, atomic by
     * itself: its old passages go (their vectors with them, by cascade), and the new
     * ones come in with their vectors (in cell 0, until a build places them), and the
     * workspace's count of vectors follows. Every list is bound as one array parameter,
     * so that the statement's text is the same for any number of passages.
     */
    async replace(source, sourceId, workspaceId, items, vectors, model) {
      // Before the statement: the first vector of a new size builds its index (once).
      if (vectors.length) await ensureIndexFor(vectors[0].length);
      const list = (values: unknown[]) => sql.param(values);
      const texts = list(items.map((item) => item.text));
      const stamps = list(items.map((item) => item.timestampSec));
      const bytes = list(items.map((_, i) => vectorBytes(vectors[i])));
      const codes = list(items.map((_, i) => signBits(vectors[i])));
      // pgvector's copy is written from the vector as text, its input format.
      const literals = list(indexed ? items.map((_, i) => vectorText(vectors[i])) : []);
      const vectorColumns = indexed
        ? sql`(passage_id, workspace_id, model, embedding, code, dims, embedding_v)`
        : sql`(passage_id, workspace_id, model, embedding, code)`;
      const vectorValues = indexed ? sql`, length(i.e) / 4, i.literal::vector` : sql``;
      await db.execute(sql`
        WITH gone AS (DELETE FROM passages WHERE source = ${source} AND source_id = ${sourceId} RETURNING dims),
        items AS (
          SELECT t.text, t.ts, t.e, t.c, t.literal, (t.n - 1)::integer AS position
          FROM unnest(${texts}::text[], ${stamps}::bigint[], ${bytes}::bytea[], ${codes}::text[], ${literals}::text[])
               WITH ORDINALITY AS t(text, ts, e, c, literal, n)),
        added AS (
          INSERT INTO passages (workspace_id, source, source_id, position, text, timestamp_sec, model, dims)
          SELECT ${workspaceId}, ${source}, ${sourceId}, i.position, i.text, i.ts, ${model}, length(i.e) / 4
          FROM items i ORDER BY i.position
          RETURNING id, position),
        counted AS (
          INSERT INTO passage_indexes (workspace_id, dims, passages)
          SELECT ${workspaceId}, d.dims, sum(d.n)::integer
          FROM (SELECT dims, -1 AS n FROM gone UNION ALL SELECT length(e) / 4, 1 FROM items) d
          GROUP BY d.dims
          ON CONFLICT (workspace_id, dims) DO UPDATE SET passages = greatest(0, passage_indexes.passages + excluded.passages))
        INSERT INTO passage_vectors ${vectorColumns}
        SELECT a.id, ${workspaceId}, ${model}, i.e, i.c::bit varying${vectorValues}
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
      const query = vectorText(vector);
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
    /** By comparing every vector exactly: the baseline for recall. */
    nearestExact,
    async modelOf(source: "note" | "article", sourceId: string): Promise<string | null> {
      const { rows } = await db.execute<{ model: string }>(
        sql`SELECT model FROM passages WHERE source = ${source} AND source_id = ${sourceId} LIMIT 1`,
      );
      return rows[0]?.model ?? null;
    },
  };
  return repo;
}

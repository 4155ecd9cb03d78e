// pgvector, where the PostgreSQL server has it: passage vectors get a `vector` copy
// with an HNSW index per embedding size, so a meaning-based search reads a few hundred
// index entries instead of every vector of the workspace. Without the extension (or
// the right to create it) the real[] vectors are searched exactly, as before, and the
// start-up log says why. Set up at start, under the migration lock, because the
// extension is optional and the generated migrations cannot depend on it.
import type pg from "pg";
import { bytesVector, vectorText } from "./vector-bytes.js";

export interface VectorIndexState {
  enabled: boolean;
  /** pgvector's version when enabled; else why not, for the start-up log. */
  detail: string;
}

export const hnswIndexName = (dims: number) => `passage_vectors_hnsw_${dims}`;

function checkDims(dims: number) {
  // pgvector's HNSW indexes vectors of up to 2,000 dimensions.
  if (!Number.isInteger(dims) || dims < 1 || dims > 2000) throw new Error(`No HNSW index for ${dims} dimensions.`);
}

/** The HNSW index for one embedding size (a partial index on the cast to that size). */
export async function ensureHnswIndex(run: (statement: string) => Promise<unknown>, dims: number): Promise<void> {
  checkDims(dims);
  await run(
    `CREATE INDEX IF NOT EXISTS ${hnswIndexName(dims)} ON passage_vectors USING hnsw ((embedding_v::vector(${dims})) vector_cosine_ops) WHERE dims = ${dims}`,
  );
}

export async function setUpVectorIndex(client: pg.ClientBase): Promise<VectorIndexState> {
  const { rows } = await client.query<{ version: string | null }>(
    "SELECT default_version AS version FROM pg_available_extensions WHERE name = 'vector'",
  );
  if (!rows.length)
    return { enabled: false, detail: "the pgvector extension is not installed on this PostgreSQL server" };
  try {
    await client.query("CREATE EXTENSION IF NOT EXISTS vector");
  } catch (err) {
    return {
      enabled: false,
      detail: `pgvector could not be enabled (${(err as Error).message}); an administrator can run CREATE EXTENSION vector`,
    };
  }
  // Building indexes over existing vectors may take a while: no statement timeout here.
  await client.query("SET statement_timeout = 0");
  try {
    await client.query(
      "ALTER TABLE passage_vectors ADD COLUMN IF NOT EXISTS dims integer, ADD COLUMN IF NOT EXISTS embedding_v vector",
    );
    // Vectors written without pgvector get their copy, a page at a time (their bytes are
    // read here: PostgreSQL cannot turn bytes into numbers).
    for (;;) {
      const page = await client.query<{ id: string; embedding: Buffer }>(
        "SELECT passage_id AS id, embedding FROM passage_vectors WHERE embedding_v IS NULL LIMIT 1000",
      );
      if (!page.rows.length) break;
      await client.query(
        `UPDATE passage_vectors v SET embedding_v = u.literal::vector, dims = u.dims
         FROM unnest($1::bigint[], $2::text[], $3::integer[]) AS u(id, literal, dims) WHERE v.passage_id = u.id`,
        [
          page.rows.map((r) => r.id),
          page.rows.map((r) => vectorText(bytesVector(r.embedding))),
          page.rows.map((r) => r.embedding.length / 4),
        ],
      );
    }
    const sizes = await client.query<{ dims: number }>(
      "SELECT DISTINCT dims FROM passage_vectors WHERE dims BETWEEN 1 AND 2000",
    );
    for (const { dims } of sizes.rows) await ensureHnswIndex((q) => client.query(q), dims);
  } finally {
    await client.query("RESET statement_timeout");
  }
  const version = await client.query<{ v: string }>(
    "SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'",
  );
  return { enabled: true, detail: `pgvector ${version.rows[0]?.v ?? "?"} with HNSW indexes` };
}

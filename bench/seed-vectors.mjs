// Passage vectors for the seeded meetings of bench/postgres.mjs, the same on both
// backends: one passage per meeting (its first transcript segment), with a vector
// drawn from real sentence embeddings (bench/vectors.mjs). SQLite's are written by the
// product's own repository and partitioned into cells as the server's background build
// does; PostgreSQL's are inserted in batches with their sign bits as the product
// writes them (bench-kit's signBits).
import pg from "pg";
import { passageVector, resetDraws } from "./vectors.mjs";

const MODEL = "use-lite-512";
const BATCH = 1000;

export async function seedVectorsSqlite(dbFile, pool, count) {
  const { openDatabase, createRepositories, buildVectorIndex } = await import("../dist/bench-kit.js");
  const opened = openDatabase(dbFile);
  try {
    const db = opened.sqlite;
    db.pragma("synchronous = OFF");
    const repos = createRepositories(opened.db);
    const ws = db.prepare("SELECT id FROM workspaces ORDER BY created_at LIMIT 1").get().id;
    const notes = db
      .prepare(
        `SELECT n.id, t.text FROM notes n JOIN transcript_segments t ON t.note_id = n.id AND t.position = 0
         ORDER BY n.created_at DESC, n.id LIMIT ?`,
      )
      .all(count);
    resetDraws();
    for (let i = 0; i < notes.length; i += BATCH)
      await repos.passages.replaceMany(
        notes.slice(i, i + BATCH).map((n) => ({
          source: "note",
          sourceId: n.id,
          workspaceId: ws,
          items: [{ text: n.text, timestampSec: 0 }],
          vectors: [passageVector(pool)],
          model: MODEL,
        })),
      );
    await buildVectorIndex(repos, Date.now, { workspaceId: ws, dims: 512 }, () => {});
    return notes.length;
  } finally {
    opened.close();
  }
}

export async function seedVectorsPostgres(url, pool, count) {
  const { signBits } = await import("../dist/bench-kit.js");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const ws = (await client.query("SELECT id FROM workspaces ORDER BY created_at LIMIT 1")).rows[0].id;
    const { rows: notes } = await client.query(
      `SELECT n.id, t.text FROM notes n JOIN transcript_segments t ON t.note_id = n.id AND t.position = 0
       ORDER BY n.created_at DESC, n.id LIMIT $1`,
      [count],
    );
    resetDraws();
    await client.query("BEGIN");
    for (let i = 0; i < notes.length; i += BATCH) {
      const batch = notes.slice(i, i + BATCH);
      const vectorOf = new Map(batch.map((n) => [n.id, passageVector(pool)]));
      const { rows: ids } = await client.query(
        `INSERT INTO passages (workspace_id, source, source_id, position, text, timestamp_sec, model, dims)
         SELECT $1, 'note', t.id, 0, t.text, 0, $2, 512 FROM unnest($3::text[], $4::text[]) AS t(id, text)
         RETURNING id, source_id`,
        [ws, MODEL, batch.map((n) => n.id), batch.map((n) => n.text)],
      );
      await client.query(
        `INSERT INTO passage_vectors (passage_id, workspace_id, model, embedding, code)
         SELECT t.id, $4, $5, t.e::real[], t.c::bit varying FROM unnest($1::bigint[], $2::text[], $3::text[]) AS t(id, e, c)`,
        [
          ids.map((r) => r.id),
          ids.map((r) => `{${Array.from(vectorOf.get(r.source_id)).join(",")}}`),
          ids.map((r) => signBits(vectorOf.get(r.source_id))),
          ws,
          MODEL,
        ],
      );
    }
    await client.query("COMMIT");
    await client.query("VACUUM ANALYZE passages");
    await client.query("VACUUM ANALYZE passage_vectors");
    return notes.length;
  } finally {
    await client.end();
  }
}

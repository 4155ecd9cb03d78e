// Passage vectors for the seeded meetings of bench/postgres.mjs, the same on both
// backends: one passage per meeting (its first transcript segment), with a vector
// drawn from real sentence embeddings (bench/vectors.mjs), written by the product's own
// repository on each backend and partitioned into cells as the server's background
// build does.
import { passageVector, resetDraws } from "./vectors.mjs";

const MODEL = "use-lite-512";
const BATCH = 1000;

const NOTES_SQL = `SELECT n.id, t.text FROM notes n JOIN transcript_segments t ON t.note_id = n.id AND t.position = 0
  ORDER BY n.created_at DESC, n.id LIMIT `;

/** Each note's passage and vector written through the repository, then the workspace's cells built. */
async function writeAndBuild(repos, buildVectorIndex, ws, notes, pool) {
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
  // As the server's background build does (nothing is due on PostgreSQL with pgvector).
  await buildVectorIndex(repos, Date.now, { workspaceId: ws, dims: 512 }, () => {});
}

export async function seedVectorsSqlite(dbFile, pool, count) {
  const { openDatabase, createRepositories, buildVectorIndex } = await import("./.kit/kit.js");
  const opened = openDatabase(dbFile);
  try {
    const db = opened.sqlite;
    db.pragma("synchronous = OFF");
    const ws = db.prepare("SELECT id FROM workspaces ORDER BY created_at LIMIT 1").get().id;
    const notes = db.prepare(`${NOTES_SQL} ?`).all(count);
    await writeAndBuild(createRepositories(opened.db), buildVectorIndex, ws, notes, pool);
    return notes.length;
  } finally {
    opened.close();
  }
}

export async function seedVectorsPostgres(url, pool, count) {
  const { openPostgres, createPgRepositories, buildVectorIndex } = await import("./.kit/kit.js");
  const opened = await openPostgres(url, { migrate: false });
  try {
    const repos = createPgRepositories(opened.db, { vectorIndex: opened.vectorIndex.enabled });
    const ws = (await opened.pool.query("SELECT id FROM workspaces ORDER BY created_at LIMIT 1")).rows[0].id;
    const { rows: notes } = await opened.pool.query(`${NOTES_SQL} $1`, [count]);
    await writeAndBuild(repos, buildVectorIndex, ws, notes, pool);
    await opened.pool.query("VACUUM ANALYZE passages");
    await opened.pool.query("VACUUM ANALYZE passage_vectors");
    return notes.length;
  } finally {
    await opened.close();
  }
}

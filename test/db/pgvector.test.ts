// Meaning-based search through pgvector's HNSW index, on PostgreSQL that has the
// extension (PGlite here): set up at start, used by searches (the plan says so), the
// same nearest passages as the exact scan, workspaces and models kept apart; and on a
// server without it (Debian's), the exact scan with the reason said.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres, type OpenedPostgres } from "../../src/db/pg/open.js";
import { createPgRepositories } from "../../src/db/pg/repos.js";
import { pgSchema } from "../../src/db/pg/schema.js";
import { startPglite, type PgliteServer } from "../helpers/pglite.js";
import { withPostgres } from "../helpers/postgres.js";
import { client } from "../helpers/http.js";
import { startServer } from "../helpers/server.js";
import { until } from "../helpers/until.js";
import { workspaceRow } from "../helpers/rows.js";

const DIMS = 16;
let seed = 7;
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 2 - 1;
const unit = (x: Float32Array) => {
  const n = Math.hypot(...x) || 1;
  return x.map((c) => c / n);
};
const randomVector = () => unit(Float32Array.from({ length: DIMS }, rand));
const ws = (id: string) => workspaceRow(id);

describe("pgvector on PostgreSQL that has it (PGlite)", () => {
  let server: PgliteServer;
  let pg: OpenedPostgres;
  beforeAll(async () => {
    server = await startPglite();
    pg = await openPostgres(server.url, { poolSize: 4 });
  }, 60_000);
  afterAll(async () => {
    await pg?.close();
    await server?.stop();
  });

  it("is enabled at start, indexes each embedding size, and finds what the exact scan finds, per workspace and model", async () => {
    expect(pg.vectorIndex).toEqual({
      enabled: true,
      detail: expect.stringMatching(/^pgvector 0\.\d+\.\d+ with HNSW indexes$/),
    });
    const repos = createPgRepositories(pg.db, { vectorIndex: true });
    await pg.db.insert(pgSchema.workspaces).values([ws("ws_big"), ws("ws_small")]);
    // A large workspace, a small one beside it, and a second model in the large one.
    const big = Array.from({ length: 400 }, randomVector);
    for (let i = 0; i < big.length; i += 20)
      await repos.passages.replace(
        "note",
        `note_${i}`,
        "ws_big",
        big.slice(i, i + 20).map((_, j) => ({ text: `big ${i + j}`, timestampSec: j })),
        big.slice(i, i + 20),
        "m1",
      );
    const small = Array.from({ length: 5 }, randomVector);
    await repos.passages.replace(
      "note",
      "note_small",
      "ws_small",
      small.map((_, j) => ({ text: `small ${j}`, timestampSec: j })),
      small,
      "m1",
    );
    await repos.passages.replace(
      "note",
      "note_other_model",
      "ws_big",
      [{ text: "other model", timestampSec: 0 }],
      [big[0]],
      "m2",
    );

    const { rows: indexes } = await pg.pool.query(
      "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'passage_vectors' AND indexdef LIKE '%hnsw%'",
    );
    expect(indexes.map((r) => r.indexname)).toEqual([`passage_vectors_hnsw_${DIMS}`]);

    let agree = 0;
    for (let q = 0; q < 20; q++) {
      const query = randomVector();
      const approx = (await repos.passages.nearest("ws_big", query, 10, "m1")).map((h) => h.text);
      const exact = (await repos.passages.nearestExact("ws_big", query, 10, "m1")).map((h) => h.text);
      agree += approx.filter((t) => exact.includes(t)).length;
      expect(approx.every((t) => t.startsWith("big "))).toBe(true);
    }
    // Recall@10 of the index against the exact scan.
    expect(agree / 200).toBeGreaterThanOrEqual(0.95);
    // The small workspace gets its own nearest, all five, though the large one's vectors fill the index.
    const mine = await repos.passages.nearest("ws_small", small[2], 10, "m1");
    expect(mine.map((h) => h.text)).toHaveLength(5);
    expect(mine[0]).toMatchObject({ text: "small 2", sourceId: "note_small" });
    expect(mine[0].distance).toBeCloseTo(0, 5);
    expect((await repos.passages.nearest("ws_big", big[0], 3, "m2")).map((h) => h.text)).toEqual(["other model"]);

    // The plan reads the index (with sequential scans off, as on a large table).
    const client = await pg.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SET LOCAL enable_seqscan = off");
      const vec = `[${Array.from(big[5]).join(",")}]`;
      const plan = await client.query(
        `EXPLAIN SELECT passage_id FROM passage_vectors WHERE dims = ${DIMS} ORDER BY embedding_v::vector(${DIMS}) <=> '${vec}'::vector(${DIMS}) LIMIT 10`,
      );
      expect(plan.rows.map((r) => r["QUERY PLAN"]).join("\n")).toContain(`passage_vectors_hnsw_${DIMS}`);
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
  });

  it("indexes vectors that existed before pgvector was enabled, at the next start", async () => {
    // Written as a server without pgvector would: its bytes only.
    const { rows } = await pg.pool.query(
      "INSERT INTO passages (workspace_id, source, source_id, position, text, timestamp_sec, model, dims) VALUES ('ws_small', 'note', 'note_legacy', 0, 'legacy', 0, 'm1', $1) RETURNING id",
      [DIMS],
    );
    const legacy = randomVector();
    await pg.pool.query("INSERT INTO passage_vectors (passage_id, embedding) VALUES ($1, $2)", [
      rows[0].id,
      Buffer.from(legacy.buffer, legacy.byteOffset, legacy.byteLength),
    ]);
    const again = await openPostgres(server.url, { poolSize: 2 });
    try {
      expect(again.vectorIndex.enabled).toBe(true);
      const hits = await createPgRepositories(again.db, { vectorIndex: true }).passages.nearest(
        "ws_small",
        legacy,
        1,
        "m1",
      );
      expect(hits[0].text).toBe("legacy");
    } finally {
      await again.close();
    }
  });
});

describe("the server on PostgreSQL with pgvector", () => {
  it("migrates, indexes notes as they are written, and finds them by meaning", async () => {
    const pglite = await startPglite();
    const server = await startServer({
      args: ["--no-rate-limit", "--database", pglite.url],
      env: { NOTULA_EMBEDDINGS: "local" },
    });
    try {
      const api = client(server.url, server.key);
      expect((await api("GET", "/readyz")).status).toBe(200);
      const made = await api("POST", "/v1/notes", {
        title: "Offsite",
        userWrittenNote: "We agreed to cut travel spending by a tenth next quarter.",
      });
      expect(made.status).toBe(200);
      await api("POST", "/v1/notes", {
        title: "Hiring",
        userWrittenNote: "Two engineers start in January; interviews continue.",
      });
      // Both notes embedded (indexing runs as jobs), then only the related one is found:
      // the other is below the model's similarity floor.
      const { default: pg } = await import("pg");
      const embedded = async () => {
        const c = new pg.Client({ connectionString: pglite.url });
        await c.connect();
        try {
          return (await c.query("SELECT count(DISTINCT source_id)::int AS n FROM passages")).rows[0].n as number;
        } finally {
          await c.end();
        }
      };
      await until("both notes embedded", async () => (await embedded()) === 2, 60_000);
      const found = (await api("GET", "/v1/search?q=we%20will%20cut%20travel%20spending&mode=semantic&limit=2")).body
        .results;
      expect(found.map((r: { note: { title: string } }) => r.note.title)).toEqual(["Offsite"]);
      // PGlite's server is one session behind every connection, as a pooler in transaction
      // mode may be: prepared statements' names clash there, and reads go on unnamed.
      const reads = await Promise.all(Array.from({ length: 6 }, () => api("GET", `/v1/notes/${made.body.note.id}`)));
      expect(reads.map((r) => r.status)).toEqual(Array(6).fill(200));
      expect(reads[0].body.note.title).toBe("Offsite");
      const c = new pg.Client({ connectionString: pglite.url });
      await c.connect();
      const n = (
        await c.query("SELECT count(*)::int AS n FROM passage_vectors WHERE embedding_v IS NOT NULL AND dims = 512")
      ).rows[0].n;
      await c.end();
      expect(n).toBeGreaterThanOrEqual(2);
    } finally {
      await server.stop();
      await pglite.stop();
    }
  }, 120_000);
});

describe("PostgreSQL without pgvector", () => {
  const ctx = withPostgres();
  it("says why and searches exactly", async () => {
    expect(ctx.pg.vectorIndex).toEqual({
      enabled: false,
      detail: "the pgvector extension is not installed on this PostgreSQL server",
    });
  });
});

// Meaning-based search finds the same nearest passages on SQLite (sqlite-vec) and
// PostgreSQL (without pgvector: screened by sign bits, then exact cosine over real[]),
// within one workspace and one model.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { describe, expect, it } from "vitest";
import { createRepositories } from "../../src/db/repos/index.js";
import { openDatabase } from "../../src/db/open.js";
import { pgConnection } from "../../src/db/pg/connection.js";
import { pgPassageRepo, signBits } from "../../src/db/pg/passages.js";
import { passageCache } from "../../src/db/pg/passage-cache.js";
import { pgSchema } from "../../src/db/pg/schema.js";
import { createTestDatabase, withPostgres } from "../helpers/postgres.js";
import { openPostgres, pgMigrationsFolder } from "../../src/db/pg/open.js";
import { createPgRepositories } from "../../src/db/pg/repos.js";
import { tempDir } from "../helpers/server.js";
import { axisVector, workspaceRow } from "../helpers/rows.js";

const v = axisVector;

describe("passage vectors on both dialects", () => {
  const ctx = withPostgres();

  it("kept in one replica's memory, a passage replaced or removed through another is never given", async () => {
    const conn = pgConnection(ctx.pg.db);
    const kept = passageCache();
    const one = pgPassageRepo(conn.db, conn.transaction, { passageCache: kept });
    const two = pgPassageRepo(conn.db, conn.transaction);
    await ctx.pg.db.insert(pgSchema.workspaces).values([workspaceRow("ws_kept")]);
    const texts = async () => (await one.nearest("ws_kept", v(0), 3, "m1")).map((h) => h.text);
    await two.replace("note", "note_k", "ws_kept", [{ text: "first words", timestampSec: 0 }], [v(0)], "m1");
    expect(await texts()).toEqual(["first words"]);
    expect(kept.size).toBe(1);
    // Asked again, it is answered from memory, the same.
    expect(await texts()).toEqual(["first words"]);
    await two.replace("note", "note_k", "ws_kept", [{ text: "second words", timestampSec: 0 }], [v(0)], "m1");
    expect(await texts()).toEqual(["second words"]);
    await two.remove("note", "note_k");
    expect(await texts()).toEqual([]);
  });

  it("return the same nearest passages, replace and remove them, and keep workspaces and models apart", async () => {
    const lite = openDatabase(`${tempDir()}/v.db`);
    const sqlite = createRepositories(lite.db).passages;
    const conn = pgConnection(ctx.pg.db);
    const postgres = pgPassageRepo(conn.db, conn.transaction);
    const ws = (id: string) => workspaceRow(id);
    await createRepositories(lite.db).workspaces.insert(ws("ws_1"));
    await createRepositories(lite.db).workspaces.insert(ws("ws_2"));
    await ctx.pg.db.insert(pgSchema.workspaces).values([ws("ws_1"), ws("ws_2")]);

    for (const repo of [sqlite, postgres]) {
      await repo.replace(
        "note",
        "note_a",
        "ws_1",
        [
          { text: "budget talk", timestampSec: 0 },
          { text: "hiring talk", timestampSec: 60 },
        ],
        [v(0), v(1)],
        "m1",
      );
      await repo.replace("note", "note_b", "ws_1", [{ text: "design talk", timestampSec: 5 }], [v(2, 0.5)], "m1");
      await repo.replace("article", "kb_1", "ws_1", [{ text: "budget policy", timestampSec: null }], [v(0, 0.3)], "m1");
      await repo.replace("note", "note_c", "ws_2", [{ text: "other workspace budget", timestampSec: 0 }], [v(0)], "m1");
    }
    const near = async (repo: typeof postgres) =>
      (await repo.nearest("ws_1", v(0), 3, "m1")).map((h) => [h.source, h.sourceId, h.text, h.timestampSec]);
    const a = await near(sqlite);
    expect(await near(postgres)).toEqual(a);
    expect(a).toEqual([
      ["note", "note_a", "budget talk", 0],
      ["article", "kb_1", "budget policy", null],
      ["note", "note_b", "design talk", 5],
    ]);
    const d = (await postgres.nearest("ws_1", v(0), 1, "m1"))[0].distance;
    expect(d).toBeCloseTo((await sqlite.nearest("ws_1", v(0), 1, "m1"))[0].distance, 5);

    for (const repo of [sqlite, postgres]) {
      await repo.replace("note", "note_a", "ws_1", [{ text: "new budget talk", timestampSec: 30 }], [v(0)], "m1");
      await repo.remove("article", "kb_1");
      expect(await repo.modelOf("note", "note_a")).toBe("m1");
      expect(await repo.modelOf("article", "kb_1")).toBeNull();
    }
    expect(await near(postgres)).toEqual(await near(sqlite));
    expect((await near(postgres))[0]).toEqual(["note", "note_a", "new budget talk", 30]);
    const { rows } = await ctx.pg.pool.query("SELECT count(*)::int AS n FROM passage_vectors");
    expect(rows[0].n).toBe(3);
    // Vectors of another model are never compared with this one's.
    for (const repo of [sqlite, postgres]) {
      await repo.replace("note", "note_d", "ws_1", [{ text: "other model budget", timestampSec: 0 }], [v(0)], "m2");
      expect((await repo.nearest("ws_1", v(0), 5, "m2")).map((h) => h.sourceId)).toEqual(["note_d"]);
      expect((await repo.nearest("ws_1", v(0), 5, "m1")).map((h) => h.sourceId)).not.toContain("note_d");
    }
    lite.close();
  });
  it("without pgvector, screens only the newest passages of the workspace: a bounded cost", async () => {
    const conn = pgConnection(ctx.pg.db);
    const bounded = pgPassageRepo(conn.db, conn.transaction, { screenedPassages: 2 });
    await ctx.pg.db.insert(pgSchema.workspaces).values(workspaceRow("ws_3"));
    // The best match is the oldest passage; after it, two newer ones that match less.
    await bounded.replace("note", "note_old", "ws_3", [{ text: "budget", timestampSec: 0 }], [v(0)], "m1");
    await bounded.replace("note", "note_new1", "ws_3", [{ text: "design", timestampSec: 0 }], [v(1)], "m1");
    await bounded.replace("note", "note_new2", "ws_3", [{ text: "budget-ish", timestampSec: 0 }], [v(0, 0.5)], "m1");
    expect((await bounded.nearest("ws_3", v(0), 5, "m1")).map((h) => h.sourceId)).toEqual(["note_new2", "note_new1"]);
    const exact = pgPassageRepo(conn.db, conn.transaction);
    expect((await exact.nearest("ws_3", v(0), 5, "m1")).map((h) => h.sourceId)).toEqual([
      "note_old",
      "note_new2",
      "note_new1",
    ]);
  });

  it("without pgvector, the screen by bits keeps the exact nearest passages (recall@10 at least 0.9)", async () => {
    const conn = pgConnection(ctx.pg.db);
    const repo = pgPassageRepo(conn.db, conn.transaction);
    await ctx.pg.db.insert(pgSchema.workspaces).values(workspaceRow("ws_4"));
    // 1,000 passages in 25 topics: each a direction plus noise, as sentence vectors cluster.
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 2 - 1;
    const DIMS = 64;
    const topics = Array.from({ length: 25 }, () => Array.from({ length: DIMS }, rand));
    const near = (t: number[], noise: number) => Float32Array.from(t, (x) => x + noise * rand());
    for (let n = 0; n < 100; n++)
      await repo.replace(
        "note",
        `note_${n}`,
        "ws_4",
        Array.from({ length: 10 }, (_, i) => ({ text: `passage ${n}.${i}`, timestampSec: i })),
        Array.from({ length: 10 }, (_, i) => near(topics[(n * 10 + i) % 25], 0.8)),
        "m1",
      );
    let found = 0;
    for (let q = 0; q < 20; q++) {
      const query = near(topics[q % 25], 0.8);
      const key = (h: { sourceId: string; text: string }) => h.text;
      const exact = (await repo.nearestExact("ws_4", query, 10, "m1")).map(key);
      const screened = await repo.nearest("ws_4", query, 10, "m1");
      found += screened.filter((h) => exact.includes(key(h))).length;
      // What passes the screen is ranked by its exact distance.
      expect(screened.map((h) => h.distance)).toEqual([...screened.map((h) => h.distance)].sort((a, b) => a - b));
    }
    expect(found / 200).toBeGreaterThanOrEqual(0.9);
  });

  it("migrates vectors stored as real[] before the bits and the cells: bits, bytes, counts, and found again", async () => {
    // A database as an older notula left it: migrated up to before the bits (0008).
    const database = await createTestDatabase();
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "notula-migrations-"));
    try {
      fs.cpSync(pgMigrationsFolder(), folder, { recursive: true });
      const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta/_journal.json"), "utf8"));
      journal.entries = journal.entries.filter((e: { tag: string }) => e.tag < "0008");
      fs.writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify(journal));
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await migrate(drizzle(client), { migrationsFolder: folder });
        const vector = Float32Array.from({ length: 24 }, (_, i) => Math.sin(i * 1.7) - (i === 5 ? 1 : 0));
        await client.query(
          "INSERT INTO workspaces (id, name, plan, settings, allowed_email_domains, created_at, updated_at) VALUES ('ws_old', 'old', 'pro', '{}', '[]', 1, 1)",
        );
        const { rows } = await client.query(
          "INSERT INTO passages (workspace_id, source, source_id, position, text, timestamp_sec, model, dims) VALUES ('ws_old', 'note', 'note_old', 0, 'old budget', 30, 'm1', 24) RETURNING id",
        );
        await client.query("INSERT INTO passage_vectors (passage_id, embedding) VALUES ($1, $2::real[])", [
          rows[0].id,
          `{${Array.from(vector).join(",")}}`,
        ]);
        // Opened by this notula: the rest of the migrations run.
        const opened = await openPostgres(database.url, { poolSize: 2 });
        try {
          const repos = createPgRepositories(opened.db);
          const { rows: after } = await opened.pool.query(
            "SELECT code::text AS code, embedding, workspace_id, model, cell FROM passage_vectors",
          );
          expect(after).toEqual([
            {
              code: signBits(vector),
              embedding: Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
              workspace_id: "ws_old",
              model: "m1",
              cell: 0,
            },
          ]);
          expect(await repos.passageIndex.indexStatus()).toEqual([
            { workspaceId: "ws_old", dims: 24, passages: 1, cells: 0, generation: 0, building: false, progress: null },
          ]);
          const [hit] = await repos.passages.nearest("ws_old", vector, 1, "m1");
          expect([hit.sourceId, hit.text, hit.timestampSec]).toEqual(["note_old", "old budget", 30]);
          expect(hit.distance).toBeCloseTo(0, 6);
          expect(await repos.passageIndex.vectorsOf([Number(rows[0].id)])).toEqual([vector]);
        } finally {
          await opened.close();
        }
      } finally {
        await client.end();
      }
    } finally {
      await database.drop();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

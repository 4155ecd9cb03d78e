// One schema source, two dialects: the PostgreSQL tables derived from the SQLite
// definitions, their generated migrations applied to a real PostgreSQL, and values
// that read back as the same JS types on both.
import { execFile } from "node:child_process";
import fs from "node:fs";
import { promisify } from "node:util";
import { getTableConfig as sqliteConfig } from "drizzle-orm/sqlite-core";
import { getTableConfig as pgConfig } from "drizzle-orm/pg-core";
import { eq, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { COPY_ORDER, NOT_COPIED } from "../../src/db/copy.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as source from "../../src/db/schema/index.js";
import * as pgTables from "../../src/db/pg/tables.js";
import { openPostgres, pgMigrationsApplied, redactUrl, type OpenedPostgres } from "../../src/db/pg/open.js";
import { pgSchema } from "../../src/db/pg/schema.js";
import { createTestDatabase, type TestDatabase } from "../helpers/postgres.js";
import { BIN, ROOT, tempDir } from "../helpers/server.js";
import { databaseTarget } from "../../src/db/target.js";

const execFileP = promisify(execFile);
const pgJournal = JSON.parse(fs.readFileSync(`${ROOT}/drizzle/pg/meta/_journal.json`, "utf8")) as {
  entries: unknown[];
};

const sourceTables = Object.values(source).filter((v) => {
  try {
    return Boolean(sqliteConfig(v as never).name);
  } catch {
    return false;
  }
});

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Actual Rows": number;
  "Shared Hit Blocks": number;
  "Shared Read Blocks": number;
  Plans?: PlanNode[];
}
const findNode = (node: PlanNode, type: string): PlanNode | undefined =>
  node["Node Type"] === type ? node : node.Plans?.map((p) => findNode(p, type)).find(Boolean);

describe("the PostgreSQL schema", () => {
  it("has every table of the source, with the same columns, keys, indexes and foreign keys", () => {
    const derived = Object.values(pgTables);
    expect(derived.length).toBe(sourceTables.length);
    expect(Object.keys(pgSchema).length).toBe(sourceTables.length);
    for (const table of sourceTables) {
      const s = sqliteConfig(table as never);
      const p = pgConfig(derived.find((t) => pgConfig(t).name === s.name)!);
      expect(
        p.columns.map((c) => [c.name, c.notNull, c.primary]),
        s.name,
      ).toEqual(s.columns.map((c) => [c.name, c.notNull, c.primary]));
      expect(p.indexes.map((i) => [i.config.name, i.config.unique])).toEqual(
        s.indexes.map((i) => [i.config.name, i.config.unique]),
      );
      expect(p.foreignKeys.length).toBe(s.foreignKeys.length);
      expect(p.primaryKeys.length).toBe(s.primaryKeys.length);
    }
  });

  it("leaves no table out of `notula admin migrate-data` except those left behind on purpose", () => {
    const tables = Object.entries(source)
      .filter(([, v]) => is(v, SQLiteTable))
      .map(([name]) => name)
      .sort();
    expect([...COPY_ORDER, ...NOT_COPIED].sort()).toEqual(tables);
  });

  it("drizzle-kit finds the committed migrations of both dialects up to date with the source", async () => {
    for (const config of ["drizzle.config.ts", "drizzle.pg.config.ts"]) {
      const { stdout } = await execFileP(
        process.execPath,
        [`${ROOT}/node_modules/drizzle-kit/bin.cjs`, "generate", "--config", config],
        { cwd: ROOT },
      );
      expect(stdout, config).toMatch(/No schema changes/);
    }
  }, 60_000);
});

describe("PostgreSQL migrations", () => {
  let database: TestDatabase;
  let opened: OpenedPostgres;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await opened?.close();
    await database?.drop();
  });

  it("apply once even when replicas start together, and /readyz's check sees them applied", async () => {
    const [a, b, c] = await Promise.all([
      openPostgres(database.url),
      openPostgres(database.url),
      openPostgres(database.url),
    ]);
    opened = a;
    await b.close();
    await c.close();
    expect(await pgMigrationsApplied(a.pool)).toBe(true);
    const { rows } = await a.pool.query("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations");
    expect(rows[0].n).toBe(pgJournal.entries.length);
    const tables = await a.pool.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
    const names = new Set(tables.rows.map((r) => r.table_name));
    for (const t of sourceTables) expect(names.has(sqliteConfig(t as never).name)).toBe(true);
    expect(names.has("notes_search")).toBe(true);
    expect(names.has("passage_vectors")).toBe(true);
  });

  it("runs every session of both pools with its statement timeout and without JIT compiling", async () => {
    const settings = async (pool: OpenedPostgres["pool"]) =>
      (await pool.query("SELECT current_setting('jit') AS jit, current_setting('statement_timeout') AS timeout"))
        .rows[0];
    const prepared = (opened.prepared as unknown as { $client: OpenedPostgres["pool"] }).$client;
    for (const pool of [opened.pool, prepared]) expect(await settings(pool)).toEqual({ jit: "off", timeout: "30s" });
  });

  it("maps the column types: times to bigint, JSON to json (key order kept), flags to boolean", async () => {
    const { rows } = await opened.pool.query(
      "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public' AND (table_name, column_name) IN (('notes','created_at'),('workspaces','settings'),('folders','is_private'),('notes','seq'))",
    );
    const types = Object.fromEntries(rows.map((r) => [`${r.table_name}.${r.column_name}`, r.data_type]));
    expect(types).toEqual({
      "notes.created_at": "bigint",
      "workspaces.settings": "json",
      "folders.is_private": "boolean",
      "notes.seq": "bigint",
    });
  });

  it("keeps a title search out of a list of pending index entries, however many notes were just written", async () => {
    const client = await opened.pool.connect();
    try {
      await client.query(
        "INSERT INTO workspaces (id, name, plan, settings, allowed_email_domains, created_at, updated_at) VALUES ('ws_gin', 'G', 'free', '{}', '[]', 0, 0)",
      );
      await client.query(
        "INSERT INTO users (id, email, name, created_at) VALUES ('usr_gin', 'gin@example.com', 'G', 0)",
      );
      await client.query(`
        INSERT INTO notes (id, workspace_id, created_by, title, kind, status, visibility, participants, created_at, updated_at)
        SELECT 'note_gin_' || i, 'ws_gin', 'usr_gin', 'Weekly sync ' || i || ' zebra' || i, 'online', 'completed',
               'workspace', '[]', i, i
        FROM generate_series(1, 3000) i`);
      // Pages of the title index read by a search for a rare word: a few, not every
      // entry written since the last vacuum (the pending list, 4 MB by default).
      await client.query("BEGIN");
      await client.query("SET LOCAL enable_seqscan = off");
      const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
        "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT id FROM notes WHERE to_tsvector('simple', title) @@ to_tsquery('simple', 'zebra2999:*')",
      );
      await client.query("COMMIT");
      const scan = findNode(rows[0]["QUERY PLAN"][0].Plan, "Bitmap Index Scan");
      expect(scan?.["Index Name"]).toBe("notes_title_tsv_idx");
      expect(scan!["Actual Rows"]).toBe(1);
      expect(scan!["Shared Hit Blocks"] + scan!["Shared Read Blocks"]).toBeLessThan(10);
    } finally {
      await client.query("DELETE FROM notes WHERE workspace_id = 'ws_gin'");
      await client.query("DELETE FROM users WHERE id = 'usr_gin'");
      await client.query("DELETE FROM workspaces WHERE id = 'ws_gin'");
      client.release();
    }
  });

  it("round-trips rows as the same JS values as SQLite, and cascades deletes", async () => {
    const { db } = opened;
    const t = pgSchema;
    const now = Date.now();
    await db.insert(t.workspaces).values({
      id: "ws_1",
      name: "W",
      plan: "pro",
      settings: { defaultLanguage: "en" },
      allowedEmailDomains: ["example.com"],
      iconUrl: null,
      createdAt: now,
      updatedAt: now,
    });
    await db.insert(t.users).values({ id: "usr_1", email: "a@example.com", name: "A", createdAt: now });
    await db.insert(t.folders).values({
      id: "fld_1",
      workspaceId: "ws_1",
      name: "F",
      icon: null,
      color: "#fff",
      isPrivate: true,
      parentFolderId: null,
      ownerUserId: "usr_1",
      createdAt: now,
      updatedAt: now,
    });
    await db.insert(t.notes).values({
      id: "note_1",
      workspaceId: "ws_1",
      createdBy: "usr_1",
      title: "Budget",
      kind: "online",
      status: "completed",
      visibility: "workspace",
      participants: [],
      calendarEvent: null,
      createdAt: now,
      updatedAt: now,
    });
    const [ws] = await db.select().from(t.workspaces).where(eq(t.workspaces.id, "ws_1"));
    expect(ws).toEqual({
      id: "ws_1",
      name: "W",
      plan: "pro",
      settings: { defaultLanguage: "en" },
      allowedEmailDomains: ["example.com"],
      iconUrl: null,
      createdAt: now,
      updatedAt: now,
    });
    const [folder] = await db.select().from(t.folders);
    expect(folder.isPrivate).toBe(true);
    const [note] = await db.select().from(t.notes);
    expect(typeof note.seq).toBe("number");
    expect(note).toMatchObject({ userWrittenNote: "", totalDurationSec: 0, participants: [], createdAt: now });
    await db.delete(t.workspaces).where(eq(t.workspaces.id, "ws_1"));
    expect(await db.select().from(t.notes)).toEqual([]);
    expect(await db.select().from(t.folders)).toEqual([]);
  });

  it("says which database failed without its password", async () => {
    const bad = new URL(database.url);
    bad.password = "s3cret-pass";
    bad.port = "1";
    await expect(openPostgres(bad.toString())).rejects.toThrow(
      /PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\//,
    );
    expect(redactUrl("postgres://u:pw@h/db")).toBe("postgres://u:***@h/db");
  });
});

describe("notula migrate and --database", () => {
  it("reads sqlite: and postgres:// URLs and refuses others", () => {
    expect(databaseTarget(undefined, "/data")).toEqual({ dialect: "sqlite", file: "/data/notula.db" });
    expect(databaseTarget("sqlite:/srv/n.db", "/data")).toEqual({ dialect: "sqlite", file: "/srv/n.db" });
    expect(databaseTarget("postgresql://u:p@h/db", "/data")).toEqual({
      dialect: "postgres",
      url: "postgresql://u:p@h/db",
    });
    expect(() => databaseTarget("mysql://u:secret@h/db", "/data")).toThrow(/not supported/);
    expect(() => databaseTarget("mysql://u:secret@h/db", "/data")).not.toThrow(/secret/);
  });

  it("applies the migrations of either database and says so", async () => {
    const database = await createTestDatabase();
    try {
      const pg = await execFileP(process.execPath, [BIN, "migrate", "--database", database.url, "--json"]);
      expect(JSON.parse(pg.stdout)).toMatchObject({ dialect: "postgres", applied: pgJournal.entries.length });
      const file = `${tempDir()}/elsewhere.db`;
      const lite = await execFileP(process.execPath, [BIN, "migrate", "--database", `sqlite:${file}`, "--json"]);
      expect(JSON.parse(lite.stdout)).toMatchObject({ dialect: "sqlite", database: file });
      expect(JSON.parse(lite.stdout).applied).toBeGreaterThanOrEqual(11);
    } finally {
      await database.drop();
    }
  });
});

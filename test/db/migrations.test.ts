// Upgrading a data dir: the migration that adds the folder timeline fills it in for
// the notes already filed, so that folder lists stay right after an upgrade.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { describe, expect, it } from "vitest";
import { migrationsFolder, openDatabase } from "../../src/db/open.js";
import { tempDir } from "../helpers/server.js";
import pg from "pg";
import { openPostgres, pgMigrationsFolder } from "../../src/db/pg/open.js";
import { createTestDatabase } from "../helpers/postgres.js";
import { drizzle as pgDrizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as pgMigrate } from "drizzle-orm/node-postgres/migrator";

/** The committed migrations up to (not including) the one whose tag starts with `before`. */
function migrationsBefore(before: string, folder = migrationsFolder()): string {
  const dir = tempDir("notula-migrations-");
  fs.cpSync(folder, dir, { recursive: true });
  const journalFile = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8"));
  journal.entries = journal.entries.filter((e: { tag: string }) => e.tag < before);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

/**
 * A scratch PostgreSQL database migrated up to (not including) the migration whose tag
 * starts with `before`: `fn` gets its pool, URL and drizzle handle; both go afterwards.
 */
async function withPgBefore(
  before: string,
  fn: (pool: pg.Pool, url: string, db: NodePgDatabase) => Promise<void>,
): Promise<void> {
  const database = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url });
  try {
    const db = pgDrizzle(pool);
    await pgMigrate(db, { migrationsFolder: migrationsBefore(before, pgMigrationsFolder()) });
    await fn(pool, database.url, db);
  } finally {
    await pool.end();
    await database.drop();
  }
}

describe("migration 0008 (folder timeline)", () => {
  it("copies each filed note's createdAt into note_folders", () => {
    const file = path.join(tempDir("notula-upgrade-"), "notula.db");
    const old = new Database(file);
    migrate(drizzle(old), { migrationsFolder: migrationsBefore("0008") });
    const t = 1_767_225_600_123;
    old.exec(`
      INSERT INTO workspaces (id, name, plan, settings, allowed_email_domains, created_at, updated_at)
        VALUES ('ws_1', 'W', 'enterprise', '{}', '[]', 0, 0);
      INSERT INTO users (id, email, name, created_at) VALUES ('usr_1', 'a@b.c', 'A', 0);
      INSERT INTO folders (id, workspace_id, name, color, is_private, owner_user_id, created_at, updated_at)
        VALUES ('fld_1', 'ws_1', 'F', '#000000', 0, 'usr_1', 0, 0);
      INSERT INTO notes (id, workspace_id, created_by, title, kind, status, visibility, participants, created_at, updated_at)
        VALUES ('note_1', 'ws_1', 'usr_1', 'N', 'online', 'completed', 'workspace', '[]', ${t}, ${t});
      INSERT INTO note_folders (note_id, folder_id) VALUES ('note_1', 'fld_1');
    `);
    old.close();
    const upgraded = openDatabase(file);
    expect(
      upgraded.sqlite.prepare("SELECT note_created_at FROM note_folders WHERE note_id = 'note_1'").pluck().get(),
    ).toBe(t);
    upgraded.close();
  });
});

/** A workspace, a person, a finished upload and two recordings (one still under way, with its pieces) in the old layout. */
const OLD_LAYOUT = `
  INSERT INTO workspaces (id, name, plan, settings, allowed_email_domains, created_at, updated_at)
    VALUES ('ws_1', 'W', 'enterprise', '{}', '[]', 0, 0);
  INSERT INTO users (id, email, name, created_at) VALUES ('usr_1', 'a@b.c', 'A', 0);
  INSERT INTO audio_uploads (id, workspace_id, user_id, extension, content_type, max_bytes, declared_duration_sec, status, bytes, note_id, expires_at, created_at, uploaded_at)
    VALUES ('upl_file', 'ws_1', 'usr_1', 'm4a', 'audio/mp4', 100, 60, 'used', 50, 'note_file', 10, 1, 2),
           ('upl_live', 'ws_1', 'usr_1', 'webm', 'audio/webm', 100, 0, 'recording', NULL, 'note_live', 5000, 3, NULL),
           ('upl_done', 'ws_1', 'usr_1', 'ogg', 'audio/ogg', 100, 0, 'used', 70, 'note_done', 4000, 4, 6);
  INSERT INTO recording_pieces (upload_id, seq, bytes, sha256, duration_ms, received_at)
    VALUES ('upl_live', 0, 10, 'a', 1000, 3), ('upl_live', 1, 11, 'b', 1000, 4);
`;

describe("migration to recordings of their own (0021 on SQLite, 0013 on PostgreSQL)", () => {
  const expectMoved = async (q: (sql: string) => Promise<Record<string, unknown>[]>) => {
    expect(await q("SELECT id FROM audio_uploads ORDER BY id")).toEqual([{ id: "upl_file" }]);
    expect(
      await q("SELECT id, note_id, format, status, quiet_until, bytes, stopped_at FROM recordings ORDER BY created_at"),
    ).toEqual([
      // In progress: still recording, with its silence deadline and its pieces.
      {
        id: "upl_live",
        note_id: "note_live",
        format: "webm",
        status: "recording",
        quiet_until: 5000,
        bytes: null,
        stopped_at: null,
      },
      {
        id: "upl_done",
        note_id: "note_done",
        format: "ogg",
        status: "stopped",
        quiet_until: 4000,
        bytes: 70,
        stopped_at: 6,
      },
    ]);
    expect(await q("SELECT recording_id, seq FROM recording_pieces ORDER BY seq")).toEqual([
      { recording_id: "upl_live", seq: 0 },
      { recording_id: "upl_live", seq: 1 },
    ]);
  };

  it("moves every recording, one under way with its pieces, and leaves the uploads (SQLite)", async () => {
    const file = path.join(tempDir("notula-upgrade-"), "notula.db");
    const old = new Database(file);
    migrate(drizzle(old), { migrationsFolder: migrationsBefore("0021") });
    old.exec(OLD_LAYOUT);
    old.close();
    const upgraded = openDatabase(file);
    await expectMoved(async (sql) => upgraded.sqlite.prepare(sql).all() as Record<string, unknown>[]);
    // The pieces now belong to the recording: deleting it takes them, as deleting the upload did.
    upgraded.sqlite.prepare("PRAGMA foreign_keys = ON").run();
    upgraded.sqlite.prepare("DELETE FROM recordings WHERE id = 'upl_live'").run();
    expect(upgraded.sqlite.prepare("SELECT count(*) FROM recording_pieces").pluck().get()).toBe(0);
    upgraded.close();
  });

  it("moves every recording, one under way with its pieces, and leaves the uploads (PostgreSQL)", async () => {
    await withPgBefore("0013", async (pool, url) => {
      await pool.query(OLD_LAYOUT);
      const opened = await openPostgres(url);
      await opened.close();
      await expectMoved(async (sql) =>
        (await pool.query(sql)).rows.map((r) =>
          Object.fromEntries(
            Object.entries(r).map(([k, v]) => [k, typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v]),
          ),
        ),
      );
    });
  });
});

/** A note made from an upload and one made from a recording, both named by audio_upload_id, and a recording's piece. */
const ONE_AUDIO_COLUMN = `
  INSERT INTO workspaces (id, name, plan, settings, allowed_email_domains, created_at, updated_at)
    VALUES ('ws_1', 'W', 'enterprise', '{}', '[]', 0, 0);
  INSERT INTO users (id, email, name, created_at) VALUES ('usr_1', 'a@b.c', 'A', 0);
  INSERT INTO notes (id, workspace_id, created_by, title, kind, status, visibility, participants, audio_upload_id, created_at, updated_at)
    VALUES ('note_file', 'ws_1', 'usr_1', 'F', 'online', 'completed', 'workspace', '[]', 'upl_file', 1, 1),
           ('note_live', 'ws_1', 'usr_1', 'L', 'online', 'completed', 'workspace', '[]', 'rec_live', 2, 2),
           ('note_typed', 'ws_1', 'usr_1', 'T', 'online', 'completed', 'workspace', '[]', NULL, 3, 3);
  INSERT INTO audio_uploads (id, workspace_id, user_id, extension, content_type, max_bytes, declared_duration_sec, status, bytes, note_id, expires_at, created_at, uploaded_at)
    VALUES ('upl_file', 'ws_1', 'usr_1', 'm4a', 'audio/mp4', 100, 60, 'used', 50, 'note_file', 10, 1, 2);
  INSERT INTO recordings (id, workspace_id, user_id, note_id, format, content_type, max_bytes, status, quiet_until, created_at)
    VALUES ('rec_live', 'ws_1', 'usr_1', 'note_live', 'webm', 'audio/webm', 100, 'stopped', 0, 2);
  INSERT INTO recording_pieces (upload_id, seq, bytes, sha256, duration_ms, received_at)
    VALUES ('rec_live', 0, 10, 'a', 1000, 3);
`;

describe("one name for each kind of audio (0030 on SQLite, 0023 on PostgreSQL)", () => {
  const expectNamed = async (q: (sql: string) => Promise<Record<string, unknown>[]>) => {
    expect(await q("SELECT id, upload_id, recording_id FROM notes ORDER BY id")).toEqual([
      { id: "note_file", upload_id: "upl_file", recording_id: null },
      { id: "note_live", upload_id: null, recording_id: "rec_live" },
      { id: "note_typed", upload_id: null, recording_id: null },
    ]);
    expect(await q("SELECT recording_id, seq FROM recording_pieces")).toEqual([{ recording_id: "rec_live", seq: 0 }]);
  };

  it("names a note's upload by upload_id and its recording by recording_id (SQLite)", async () => {
    const file = path.join(tempDir("notula-upgrade-"), "notula.db");
    const old = new Database(file);
    migrate(drizzle(old), { migrationsFolder: migrationsBefore("0030") });
    old.exec(ONE_AUDIO_COLUMN);
    old.close();
    const upgraded = openDatabase(file);
    await expectNamed(async (sql) => upgraded.sqlite.prepare(sql).all() as Record<string, unknown>[]);
    upgraded.close();
  });

  it("names a note's upload by upload_id and its recording by recording_id (PostgreSQL)", async () => {
    await withPgBefore("0023", async (pool, url) => {
      await pool.query(ONE_AUDIO_COLUMN);
      const opened = await openPostgres(url);
      await opened.close();
      await expectNamed(async (sql) =>
        (await pool.query(sql)).rows.map((r) =>
          Object.fromEntries(
            Object.entries(r).map(([k, v]) => [k, typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v]),
          ),
        ),
      );
    });
  });
});

/** A note with two participants (one by name alone) and its content search row, as written before search saw participants. */
const BEFORE_PARTICIPANTS = `
  INSERT INTO workspaces (id, name, plan, settings, allowed_email_domains, created_at, updated_at)
    VALUES ('ws_1', 'W', 'enterprise', '{}', '[]', 0, 0);
  INSERT INTO users (id, email, name, created_at) VALUES ('usr_1', 'a@b.c', 'A', 0);
  INSERT INTO notes (id, workspace_id, created_by, title, kind, status, visibility, participants, summary, created_at, updated_at)
    VALUES ('note_1', 'ws_1', 'usr_1', 'Budget', 'online', 'completed', 'workspace',
            '[{"name":"Ana Lima","email":"ana@partner.example"},{"name":"Ben","email":""},{"name":"","email":""}]',
            'We cut the budget.', 0, 0),
           ('note_2', 'ws_1', 'usr_1', 'Alone', 'online', 'completed', 'workspace', '[]', 'Nobody else.', 0, 0);
`;
const PEOPLE = "Ana Lima ana@partner.example, Ben";
/** PostgreSQL's parser keeps an address as one word: the address's words follow it. */
const PG_PEOPLE = "Ana Lima ana@partner.example ana partner example, Ben";

describe("migration that lets search see participants (0026 on SQLite, 0019 on PostgreSQL)", () => {
  it("adds who was there to each note's search row, as a new write does (SQLite)", () => {
    const file = path.join(tempDir("notula-upgrade-"), "notula.db");
    const old = new Database(file);
    migrate(drizzle(old), { migrationsFolder: migrationsBefore("0026") });
    old.exec(BEFORE_PARTICIPANTS);
    old.exec(`INSERT INTO notes_fts (rowid, title, body) SELECT seq, title, summary FROM notes`);
    old.close();
    const upgraded = openDatabase(file);
    const body = (id: string) =>
      upgraded.sqlite
        .prepare("SELECT f.body FROM notes_fts f JOIN notes n ON n.seq = f.rowid WHERE n.id = ?")
        .pluck()
        .get(id);
    expect(body("note_1")).toBe(`We cut the budget.\n${PEOPLE}`);
    expect(body("note_2")).toBe("Nobody else.");
    expect(
      upgraded.sqlite
        .prepare("SELECT n.id FROM notes_fts f JOIN notes n ON n.seq = f.rowid WHERE notes_fts MATCH 'lima'")
        .pluck()
        .all(),
    ).toEqual(["note_1"]);
    upgraded.close();
  });

  it("adds who was there to each note's search row, as a new write does (PostgreSQL)", async () => {
    await withPgBefore("0019", async (pool, url, db) => {
      await pool.query(BEFORE_PARTICIPANTS);
      await pool.query(`INSERT INTO notes_search (note_seq, title, body) SELECT seq, title, summary FROM notes`);
      const opened = await openPostgres(url);
      await opened.close();
      const rows = (
        await pool.query("SELECT n.id, s.body FROM notes_search s JOIN notes n ON n.seq = s.note_seq ORDER BY n.id")
      ).rows;
      expect(rows).toEqual([
        { id: "note_1", body: `We cut the budget.\n${PG_PEOPLE}` },
        { id: "note_2", body: "Nobody else." },
      ]);
      // A note written now gets the same line.
      const { reindexNote } = await import("../../src/db/pg/search.js");
      await reindexNote(db, "note_1");
      expect(
        (await pool.query("SELECT body FROM notes_search s JOIN notes n ON n.seq = s.note_seq WHERE n.id = 'note_1'"))
          .rows[0].body,
      ).toBe(`We cut the budget.\n${PG_PEOPLE}`);
    });
  });
});

describe("a note's words kept in its search row (0026 on PostgreSQL)", () => {
  /** Buffers read to test every note's words for `word`, and the search table's own pages. */
  const cost = async (pool: pg.Pool, word: string) => {
    await pool.query("VACUUM ANALYZE notes_search");
    const plan = (
      await pool.query(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT count(*) FROM notes_search WHERE tsv @@ to_tsquery('english', $1)`,
        [word],
      )
    ).rows[0]["QUERY PLAN"][0].Plan;
    const pages = (await pool.query("SELECT relpages FROM pg_class WHERE relname = 'notes_search'")).rows[0].relpages;
    return { read: plan["Shared Hit Blocks"] + plan["Shared Read Blocks"], pages };
  };

  it("tests a long note's words without a TOAST lookup, rows written before the upgrade and after", async () => {
    await withPgBefore("0026", async (pool, url, db) => {
      // A few minutes of meeting, in words as varied as speech: more than a row's 2 kB
      // even compressed.
      let x = 7;
      const word = () => ((x = (x * 48271) % 2147483647), `w${x.toString(36)}`);
      const said = Array.from({ length: 300 }, (_, i) => (i % 30 ? word() : "budget")).join(" ");
      await pool.query(BEFORE_PARTICIPANTS);
      await pool.query(`INSERT INTO notes_search (note_seq, title, body) SELECT seq, title, $1 FROM notes`, [said]);
      const before = await cost(pool, "budget");
      expect(before.read).toBeGreaterThan(before.pages);

      const opened = await openPostgres(url);
      await opened.close();
      const after = await cost(pool, "budget");
      expect(after.read).toBe(after.pages);

      // A row written since reads the same way.
      await pool.query(`UPDATE notes SET summary = $1 || ' Also the roadmap.' WHERE id = 'note_2'`, [said]);
      const { reindexNote } = await import("../../src/db/pg/search.js");
      await reindexNote(db, "note_2");
      const written = await cost(pool, "roadmap");
      expect(written.read).toBe(written.pages);
    });
  });
});

describe("migration that leaves citations' link markup out of search (0038 on SQLite, 0033 on PostgreSQL)", () => {
  const CITED = `
    INSERT INTO workspaces (id, name, plan, settings, allowed_email_domains, created_at, updated_at)
      VALUES ('ws_1', 'W', 'enterprise', '{}', '[]', 0, 0);
    INSERT INTO users (id, email, name, created_at) VALUES ('usr_1', 'a@b.c', 'A', 0);
    INSERT INTO notes (id, workspace_id, created_by, title, kind, status, visibility, participants, summary, enhanced_note, created_at, updated_at)
      VALUES ('note_1', 'ws_1', 'usr_1', 'Venue', 'online', 'completed', 'workspace', '[]',
              'Booked for June [00:42](/notes/note_1#t=42).', '- Caterer chosen [1:01:05](/notes/note_1#t=3665)', 0, 0),
             ('note_2', 'ws_1', 'usr_1', 'Plain', 'online', 'completed', 'workspace', '[]', 'Read the [notes](/notes/).', '', 0, 0);
  `;
  const BODIES = [
    { id: "note_1", body: "Booked for June.\n- Caterer chosen" },
    { id: "note_2", body: "Read the [notes](/notes/)." },
  ];

  it("rewrites the notes indexed before, and only their citations (SQLite)", () => {
    const file = path.join(tempDir("notula-upgrade-"), "notula.db");
    const old = new Database(file);
    migrate(drizzle(old), { migrationsFolder: migrationsBefore("0038") });
    old.exec(CITED);
    old.exec(
      `INSERT INTO notes_fts (rowid, title, body) SELECT seq, title, summary || char(10) || enhanced_note FROM notes WHERE id = 'note_1'`,
    );
    old.exec(`INSERT INTO notes_fts (rowid, title, body) SELECT seq, title, summary FROM notes WHERE id = 'note_2'`);
    old.close();
    const upgraded = openDatabase(file);
    expect(
      upgraded.sqlite
        .prepare("SELECT n.id, f.body FROM notes_fts f JOIN notes n ON n.seq = f.rowid ORDER BY n.id")
        .all(),
    ).toEqual(BODIES);
    upgraded.close();
  });

  it("rewrites the notes indexed before, and only their citations (PostgreSQL)", async () => {
    await withPgBefore("0033", async (pool, url) => {
      await pool.query(CITED);
      await pool.query(
        `INSERT INTO notes_search (note_seq, title, body) SELECT seq, title, concat_ws(E'\\n', summary, nullif(enhanced_note, '')) FROM notes`,
      );
      const opened = await openPostgres(url);
      await opened.close();
      expect(
        (await pool.query("SELECT n.id, s.body FROM notes_search s JOIN notes n ON n.seq = s.note_seq ORDER BY n.id"))
          .rows,
      ).toEqual(BODIES);
    });
  });
});

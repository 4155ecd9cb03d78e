// Opens the SQLite database of a data dir: pragmas for durability and concurrency
// (the server and `notula admin` may use the same file at once), then migrations.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { upgradeVectorTables } from "./sqlite/passage-codes.js";
import { withoutCitations } from "../shared/note-links.js";
import * as schema from "./schema/index.js";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export interface OpenedDatabase {
  db: Db;
  sqlite: Database.Database;
  close(): void;
}

/** Finds the committed drizzle-kit migrations, from src/ (tests) or dist/ (the package). */
export function migrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, "drizzle");
    if (fs.existsSync(path.join(candidate, "meta", "_journal.json"))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error("notula's database migrations (drizzle/) were not found next to the program; reinstall notula.");
}

export function openDatabase(file: string, options: { migrate?: boolean } = {}): OpenedDatabase {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  // FULL: a commit is on disk before the response that acknowledges it is sent.
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("cache_size = -32000");
  sqlite.pragma("temp_store = MEMORY");
  // sqlite-vec: vector tables for meaning-based search (prebuilt, from npm).
  sqliteVec.load(sqlite);
  // The search index's words without citations' link markup, for the migration that
  // rewrote the notes indexed before (drizzle/0038); new rows get it from the repository.
  sqlite.function("notula_without_citations", { deterministic: true }, (text: unknown) =>
    typeof text === "string" ? withoutCitations(text) : text,
  );
  const db = drizzle(sqlite, { schema }) as Db;
  if (options.migrate !== false) {
    migrate(db, { migrationsFolder: migrationsFolder() });
    // The one step SQL cannot express: vector tables named by their size.
    upgradeVectorTables(sqlite);
  }
  return {
    db,
    sqlite,
    close() {
      if (sqlite.open) sqlite.close();
    },
  };
}

/** Whether every committed migration has been applied (for /readyz). */
export function migrationsApplied(sqlite: Database.Database): boolean {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder(), "meta", "_journal.json"), "utf8")) as {
    entries: unknown[];
  };
  try {
    const row = sqlite.prepare("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number };
    return row.n >= journal.entries.length;
  } catch {
    return false;
  }
}

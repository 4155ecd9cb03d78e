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

/** The committed migrations up to (not including) the one whose tag starts with `before`. */
function migrationsBefore(before: string): string {
  const dir = tempDir("notula-migrations-");
  fs.cpSync(migrationsFolder(), dir, { recursive: true });
  const journalFile = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8"));
  journal.entries = journal.entries.filter((e: { tag: string }) => e.tag < before);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
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

// On SQLite the reads every request starts with (a key and its workspace's plan, a
// session and its membership, the private folders a caller is outside of) are kept in
// memory until the facts they are made of change: triggers on those tables
// (drizzle/0039) count each change, whichever connection makes it. Other writes (a new
// note, a job) keep them; a change to a fact, made here, by another process or inside a
// transaction, is seen on the very next read; a transaction that rolls back leaves
// nothing of itself kept.
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type OpenedDatabase } from "../../src/db/open.js";
import { createRepositories, type Repositories } from "../../src/db/repos/index.js";
import { apiKeyRow, noteRow, workspaceRow } from "../helpers/rows.js";
import { tempDir } from "../helpers/server.js";

describe("callers' facts kept in memory on SQLite", () => {
  let opened: OpenedDatabase;
  let repos: Repositories;
  /** Another process's connection to the same file, as `notula admin` has. */
  let other: Database.Database;

  beforeEach(async () => {
    const file = path.join(tempDir("notula-read-cache-"), "notula.db");
    opened = openDatabase(file);
    other = new Database(file);
    repos = createRepositories(opened.db);
    await repos.workspaces.insert(workspaceRow("ws_1"));
    for (const id of ["usr_ana", "usr_1"])
      await repos.users.insert({
        id,
        email: `${id}@x.org`,
        name: id,
        profileUrl: "",
        passwordHash: null,
        createdAt: 1,
      });
    await repos.members.insert({ id: "mem_1", workspaceId: "ws_1", userId: "usr_1", role: "member", createdAt: 1 });
    await repos.apiKeys.insert(apiKeyRow());
  });
  afterEach(() => {
    other?.close();
    opened?.close();
  });

  // A key's last use is no fact (no trigger counts it): written behind the cache's back,
  // it shows whether a read came from memory.
  const touch = (at: number) => other.prepare("UPDATE api_keys SET last_used_at = ?").run(at);
  const key = () => repos.apiKeys.findByHashWithPlan("kh");

  it("keeps a key through writes to anything else, and drops it at a change to a fact by another process", async () => {
    expect((await key())?.lastUsedAt).toBeNull();
    touch(7);
    expect((await key())?.lastUsedAt, "kept").toBeNull();
    // A new note and a job: writes of this process that change no fact.
    await repos.notes.insert(noteRow("note_1"));
    await repos.jobs.enqueue({ kind: "k", payload: {}, maxAttempts: 1, availableAt: 0, now: 0 });
    other
      .prepare(
        "INSERT INTO jobs (kind, payload, status, attempts, max_attempts, available_at, created_at, updated_at) VALUES ('k', '{}', 'queued', 0, 1, 0, 0, 0)",
      )
      .run();
    expect((await key())?.lastUsedAt, "kept through other writes").toBeNull();
    // The other process revokes the key: the next read sees it.
    other.prepare("UPDATE api_keys SET revoked_at = 9").run();
    const revoked = await key();
    expect(revoked?.revokedAt).toBe(9);
    expect(revoked?.lastUsedAt).toBe(7);
    // A plan, a role and a private folder, each from the other process.
    other.prepare("UPDATE workspaces SET plan = 'enterprise'").run();
    expect((await key())?.plan).toBe("enterprise");
    other.prepare("UPDATE members SET role = 'admin'").run();
    expect((await key())?.role).toBe("admin");
    other
      .prepare(
        "INSERT INTO folders (id, workspace_id, name, color, is_private, owner_user_id, created_at, updated_at) VALUES ('fld_1', 'ws_1', 'HR', '#000', 1, 'usr_ana', 0, 0)",
      )
      .run();
    expect((await key())?.hiddenFolderIds).toEqual(["fld_1"]);
  });

  it("sees a change made inside a transaction at once, and keeps nothing of one that rolls back", async () => {
    expect((await key())?.role).toBe("member");
    await expect(
      repos.transaction(async () => {
        await repos.members.setRole("ws_1", "mem_1", "admin");
        expect((await key())?.role, "inside, the change is seen").toBe("admin");
        expect((await key())?.role).toBe("admin");
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect((await key())?.role, "after the rollback").toBe("member");
    // The count is back where it was: had the read inside been kept, a commit that moves
    // it to the same number again would serve it. It is not.
    touch(3);
    await repos.transaction(async () => {
      await repos.members.setRole("ws_1", "mem_1", "member");
    });
    const after = await key();
    expect(after?.role).toBe("member");
    expect(after?.lastUsedAt).toBe(3);
  });
});

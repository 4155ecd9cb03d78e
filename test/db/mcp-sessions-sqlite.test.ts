// MCP session records on SQLite are committed without waiting for the disk (a lost one
// costs its client a new initialize), and only they: the connection is back to FULL
// after each, so a note written next still waits for its flush. Inside a transaction
// a session write joins it and goes with its rollback.
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type OpenedDatabase } from "../../src/db/open.js";
import { createRepositories, type Repositories } from "../../src/db/repos/index.js";
import { tempDir } from "../helpers/server.js";

const FULL = 2;
const row = (idHash: string, t = 1_000) => ({
  idHash,
  keyId: "key_1",
  createdAt: t,
  lastSeenAt: t,
  expiresAt: t + 60_000,
});

describe("MCP session records on SQLite", () => {
  let opened: OpenedDatabase;
  let repos: Repositories;
  let other: Database.Database;

  beforeEach(() => {
    const file = path.join(tempDir("notula-mcp-sessions-"), "notula.db");
    opened = openDatabase(file);
    other = new Database(file, { readonly: true });
    repos = createRepositories(opened.db);
  });
  afterEach(() => {
    other?.close();
    opened?.close();
  });

  const synchronous = () => opened.db.$client.pragma("synchronous", { simple: true });

  it("are written, read, extended and removed, and leave the connection flushing every other commit", async () => {
    expect(synchronous()).toBe(FULL);
    await repos.sharedState.putMcpSession(row("h1"));
    expect(synchronous()).toBe(FULL);
    // Committed: another connection reads it.
    expect(other.prepare("SELECT key_id FROM mcp_sessions WHERE id_hash = 'h1'").pluck().get()).toBe("key_1");
    expect(await repos.sharedState.liveMcpSession("h1", 2_000)).toEqual(row("h1"));
    expect(await repos.sharedState.liveMcpSession("h1", 61_000)).toBeNull();

    const touched = await repos.sharedState.touchMcpSession("h1", 50_000, 60_000);
    expect(touched).toEqual({ ...row("h1"), lastSeenAt: 50_000, expiresAt: 110_000 });
    expect(synchronous()).toBe(FULL);
    expect(await repos.sharedState.touchMcpSession("h1", 200_000, 60_000)).toBeNull();

    await repos.sharedState.removeMcpSession("h1");
    expect(synchronous()).toBe(FULL);
    expect(other.prepare("SELECT count(*) FROM mcp_sessions").pluck().get()).toBe(0);
  });

  it("join a transaction and go with its rollback", async () => {
    await expect(
      repos.transaction(async () => {
        await repos.sharedState.putMcpSession(row("h2"));
        expect(await repos.sharedState.liveMcpSession("h2", 2_000)).not.toBeNull();
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await repos.sharedState.liveMcpSession("h2", 2_000)).toBeNull();
    expect(synchronous()).toBe(FULL);
  });
});

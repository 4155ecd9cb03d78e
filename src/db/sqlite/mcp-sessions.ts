// MCP sessions on SQLite: prepared once, and written without waiting for the disk.
// A new session costs an insert and a delete, each a commit; with synchronous = FULL
// each commit waits for its flush on the one thread that answers every request
// (0.2–0.5 ms here). A session record lost to a power cut costs its client one new
// initialize (the protocol's answer to an unknown session, 404), so these commits
// wait for none: the next FULL commit or checkpoint takes them to disk with it, and
// WAL keeps the database whole either way.
import type Database from "better-sqlite3";
import type { McpSessionRow } from "../repos/shared-state.js";

export function sqliteMcpSessions(sqlite: Database.Database) {
  const put = sqlite.prepare(
    "INSERT INTO mcp_sessions (id_hash, key_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)",
  );
  const live = sqlite.prepare(
    "SELECT id_hash AS idHash, key_id AS keyId, created_at AS createdAt, last_seen_at AS lastSeenAt, expires_at AS expiresAt FROM mcp_sessions WHERE id_hash = ? AND expires_at > ?",
  );
  const touch = sqlite.prepare(
    "UPDATE mcp_sessions SET last_seen_at = ?, expires_at = ? WHERE id_hash = ? AND expires_at > ? RETURNING id_hash AS idHash, key_id AS keyId, created_at AS createdAt, last_seen_at AS lastSeenAt, expires_at AS expiresAt",
  );
  const remove = sqlite.prepare("DELETE FROM mcp_sessions WHERE id_hash = ?");

  /** `write` committed without its flush; inside a transaction it simply joins it. */
  function unflushed<T>(write: () => T): T {
    if (sqlite.inTransaction) return write();
    const was = sqlite.pragma("synchronous", { simple: true }) as number;
    sqlite.pragma("synchronous = NORMAL");
    try {
      return write();
    } finally {
      sqlite.pragma(`synchronous = ${was}`);
    }
  }

  return {
    putMcpSession(row: McpSessionRow): void {
      unflushed(() => put.run(row.idHash, row.keyId, row.createdAt, row.lastSeenAt, row.expiresAt));
    },
    /** A live session; null when unknown or expired. */
    liveMcpSession(idHash: string, now: number): McpSessionRow | null {
      return (live.get(idHash, now) as McpSessionRow | undefined) ?? null;
    },
    /** A live session, its idle time extended; null when unknown or expired. */
    touchMcpSession(idHash: string, now: number, idleMs: number): McpSessionRow | null {
      return (unflushed(() => touch.get(now, now + idleMs, idHash, now)) as McpSessionRow | undefined) ?? null;
    },
    removeMcpSession(idHash: string): void {
      unflushed(() => remove.run(idHash));
    },
  };
}

// Browser sessions and one-time account links.
import { and, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../open.js";
import { accountTokens, webSessions } from "../schema/index.js";
import { createReadCache } from "../read-cache.js";

export type WebSessionRow = typeof webSessions.$inferSelect;
export type AccountTokenRow = typeof accountTokens.$inferSelect;
export interface SessionMembership {
  workspaceId: string;
  workspaceName: string;
  plan: "free" | "pro" | "enterprise";
  role: "admin" | "member";
  name: string;
  email: string;
}

export function sessionRepo(db: Db) {
  // Read on every signed-in page: prepared once.
  const getStmt = db.select().from(webSessions).where(eq(webSessions.idHash, sql.placeholder("hash"))).prepare();
  // Who a session speaks for, in one query: its user's membership of the session's
  // workspace (or, before one is picked, of the user's first), with the plan.
  const columns = `m.workspace_id AS workspaceId, w.name AS workspaceName, w.plan AS plan, m.role AS role, u.name AS name, u.email AS email
    FROM members AS m JOIN workspaces AS w ON w.id = m.workspace_id JOIN users AS u ON u.id = m.user_id`;
  // Two statements rather than one with "? IS NULL OR …", which no index can serve.
  const inWorkspaceStmt = db.$client.prepare(`SELECT ${columns} WHERE m.workspace_id = ? AND m.user_id = ?`);
  const firstStmt = db.$client.prepare(`SELECT ${columns} WHERE m.user_id = ? ORDER BY w.created_at LIMIT 1`);
  // Every signed-in page resolves its session and member; between writes, from memory.
  const sessionCache = createReadCache<WebSessionRow>(db.$client);
  const memberCache = createReadCache<SessionMembership>(db.$client);
  return {
    insert: (row: typeof webSessions.$inferInsert) => void db.insert(webSessions).values(row).run(),
    get: (idHash: string): WebSessionRow | null => sessionCache.get(idHash, () => (getStmt.get({ hash: idHash }) as WebSessionRow | undefined) ?? null),
    update: (idHash: string, fields: Partial<Pick<WebSessionRow, "workspaceId" | "lastSeenAt" | "expiresAt">>) =>
      void db.update(webSessions).set(fields).where(eq(webSessions.idHash, idHash)).run(),
    membership(userId: string, workspaceId: string | null): SessionMembership | null {
      return memberCache.get(`${userId} ${workspaceId ?? ""}`, () => {
        const row = workspaceId === null ? firstStmt.get(userId) : inWorkspaceStmt.get(workspaceId, userId);
        return (row as SessionMembership | undefined) ?? null;
      });
    },
    /** A user's live sessions, most recently used first. */
    listForUser: (userId: string, now: number): WebSessionRow[] =>
      db.select().from(webSessions).where(and(eq(webSessions.userId, userId), gt(webSessions.expiresAt, now))).orderBy(desc(webSessions.lastSeenAt)).all(),
    delete: (idHash: string) => db.delete(webSessions).where(eq(webSessions.idHash, idHash)).run().changes > 0,
    /** Every session of the user but `keep` (null: all of them). */
    deleteForUser: (userId: string, keep: string | null) =>
      db
        .delete(webSessions)
        .where(keep ? and(eq(webSessions.userId, userId), ne(webSessions.idHash, keep)) : eq(webSessions.userId, userId))
        .run().changes,

    insertToken: (row: AccountTokenRow) => void db.insert(accountTokens).values(row).run(),
    token: (hash: string): AccountTokenRow | null => db.select().from(accountTokens).where(eq(accountTokens.tokenHash, hash)).get() ?? null,
    /** Marks a link used; false when it was used already (two tabs racing). */
    useToken: (hash: string, now: number) =>
      db.update(accountTokens).set({ usedAt: now }).where(and(eq(accountTokens.tokenHash, hash), isNull(accountTokens.usedAt))).run().changes > 0,
    /** Unused links of a user for a purpose are dropped when a new one is made. */
    dropTokens: (userId: string, purpose: AccountTokenRow["purpose"]) =>
      void db.delete(accountTokens).where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt))).run(),
  };
}

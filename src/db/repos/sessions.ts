// Browser sessions and one-time account links.
import { and, desc, eq, gt, isNull, ne } from "drizzle-orm";
import type { Db } from "../open.js";
import type { accountTokens, webSessions } from "../schema/index.js";
import { first, type Dialect, type Tables } from "./portable.js";
import { hiddenFolderIdsSql, parseIdList } from "./hidden-folders.js";

export type WebSessionRow = typeof webSessions.$inferSelect;
export type AccountTokenRow = typeof accountTokens.$inferSelect;
export interface SessionMembership {
  workspaceId: string;
  workspaceName: string;
  plan: "free" | "pro" | "enterprise";
  role: "admin" | "member";
  name: string;
  email: string;
  timeZone: string | null;
  /** The workspace's private folders the member is outside of. */
  hiddenFolderIds: string[];
}

export function sessionRepo(db: Db, t: Tables, dialect: Dialect) {
  const { accountTokens, members, users, webSessions, workspaces } = t;
  // Every signed-in page resolves its session and member; between writes, from memory
  // where the dialect can tell.
  const sessionCache = dialect.readCache<WebSessionRow>();
  const memberCache = dialect.readCache<SessionMembership>();
  const membership = {
    workspaceId: members.workspaceId,
    workspaceName: workspaces.name,
    plan: workspaces.plan,
    role: members.role,
    name: users.name,
    email: users.email,
    timeZone: users.timeZone,
    hidden: hiddenFolderIdsSql(db, t, dialect, members.workspaceId, members.userId),
  };
  const changed = (rows: unknown[]) => rows.length;
  return {
    async insert(row: typeof webSessions.$inferInsert): Promise<void> {
      await db.insert(webSessions).values(row);
    },
    get: (idHash: string): Promise<WebSessionRow | null> =>
      sessionCache.get(idHash, async () =>
        first(await db.select().from(webSessions).where(eq(webSessions.idHash, idHash)).limit(1)),
      ),
    async update(
      idHash: string,
      fields: Partial<Pick<WebSessionRow, "workspaceId" | "lastSeenAt" | "expiresAt">>,
    ): Promise<void> {
      await db.update(webSessions).set(fields).where(eq(webSessions.idHash, idHash));
    },
    /**
     * Who a session speaks for: its user's membership of the session's workspace (or,
     * before one is picked, of the user's first), with the plan.
     */
    membership(userId: string, workspaceId: string | null): Promise<SessionMembership | null> {
      return memberCache.get(`${userId} ${workspaceId ?? ""}`, async () => {
        const row = first(
          await db
            .select(membership)
            .from(members)
            .innerJoin(workspaces, eq(workspaces.id, members.workspaceId))
            .innerJoin(users, eq(users.id, members.userId))
            // Two shapes rather than one with "? IS NULL OR …", which no index can serve.
            .where(
              workspaceId === null
                ? eq(members.userId, userId)
                : and(eq(members.workspaceId, workspaceId), eq(members.userId, userId)),
            )
            .orderBy(workspaces.createdAt)
            .limit(1),
        );
        if (!row) return null;
        const { hidden, ...member } = row;
        return { ...member, hiddenFolderIds: parseIdList(hidden) };
      });
    },
    /** A user's live sessions, most recently used first. */
    async listForUser(userId: string, now: number): Promise<WebSessionRow[]> {
      return db
        .select()
        .from(webSessions)
        .where(and(eq(webSessions.userId, userId), gt(webSessions.expiresAt, now)))
        .orderBy(desc(webSessions.lastSeenAt));
    },
    async delete(idHash: string): Promise<boolean> {
      return (
        changed(
          await db.delete(webSessions).where(eq(webSessions.idHash, idHash)).returning({ h: webSessions.idHash }),
        ) > 0
      );
    },
    /** Every session of the user but `keep` (null: all of them). */
    async deleteForUser(userId: string, keep: string | null): Promise<number> {
      const where = keep
        ? and(eq(webSessions.userId, userId), ne(webSessions.idHash, keep))
        : eq(webSessions.userId, userId);
      return changed(await db.delete(webSessions).where(where).returning({ h: webSessions.idHash }));
    },

    async insertToken(row: AccountTokenRow): Promise<void> {
      await db.insert(accountTokens).values(row);
    },
    token: async (hash: string): Promise<AccountTokenRow | null> =>
      first(await db.select().from(accountTokens).where(eq(accountTokens.tokenHash, hash)).limit(1)),
    /** Marks a link used; false when it was used already (two tabs racing). */
    async useToken(hash: string, now: number): Promise<boolean> {
      const where = and(eq(accountTokens.tokenHash, hash), isNull(accountTokens.usedAt));
      return (
        changed(
          await db.update(accountTokens).set({ usedAt: now }).where(where).returning({ h: accountTokens.tokenHash }),
        ) > 0
      );
    },
    /** Unused links of a user for a purpose are dropped when a new one is made. */
    async dropTokens(userId: string, purpose: AccountTokenRow["purpose"]): Promise<void> {
      await db
        .delete(accountTokens)
        .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)));
    },
  };
}

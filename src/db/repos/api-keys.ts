import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../open.js";
import type { apiKeys } from "../schema/index.js";
import { first, type Dialect, type Tables } from "./portable.js";
import { hiddenFolderIdsSql, parseIdList } from "./hidden-folders.js";

export type ApiKeyRow = typeof apiKeys.$inferSelect;
/**
 * A key with its workspace's plan, its holder's role there (null once they are no
 * member) and the private folders the holder is outside of.
 */
export type KeyWithPlan = ApiKeyRow & {
  plan: "free" | "pro" | "enterprise";
  role: "admin" | "member" | null;
  hiddenFolderIds: string[];
  /** The workspace's settings (its defaults for new notes among them). */
  workspaceSettings: Record<string, unknown>;
};

export function apiKeyRepo(db: Db, t: Tables, dialect: Dialect) {
  const { apiKeys, members, workspaces } = t;
  // Every request resolves its key: found keys are cached where the dialect can tell
  // when the database changed (any commit drops them, so a revoked key or a new plan
  // counts at once); misses are not, so random keys cannot fill memory.
  const cache = dialect.readCache<KeyWithPlan>();
  const changedRows = (rows: unknown[]) => rows.length;

  return {
    /** The key with its workspace's current plan, its holder's role and hidden folders: one statement. */
    findByHashWithPlan(hash: string): Promise<KeyWithPlan | null> {
      return cache.get(hash, async () => {
        const row = first(
          await db
            .select({
              key: apiKeys,
              plan: workspaces.plan,
              settings: workspaces.settings,
              role: members.role,
              hidden: hiddenFolderIdsSql(db, t, dialect, apiKeys.workspaceId, apiKeys.userId),
            })
            .from(apiKeys)
            .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
            .leftJoin(members, and(eq(members.workspaceId, apiKeys.workspaceId), eq(members.userId, apiKeys.userId)))
            .where(eq(apiKeys.keyHash, hash))
            .limit(1),
        );
        return row
          ? {
              ...row.key,
              plan: row.plan,
              role: row.role,
              hiddenFolderIds: parseIdList(row.hidden),
              workspaceSettings: row.settings,
            }
          : null;
      });
    },
    async insert(row: ApiKeyRow): Promise<void> {
      await db.insert(apiKeys).values(row);
    },
    /** Records use. */
    async touch(id: string, now: number): Promise<void> {
      await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, id));
    },
    async listForUser(workspaceId: string, userId: string): Promise<ApiKeyRow[]> {
      return db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.userId, userId)))
        .orderBy(apiKeys.createdAt);
    },
    /** Revokes a key only if it belongs to this user in this workspace. */
    async revokeOwn(workspaceId: string, userId: string, id: string, now: number): Promise<boolean> {
      const where = and(
        eq(apiKeys.id, id),
        eq(apiKeys.workspaceId, workspaceId),
        eq(apiKeys.userId, userId),
        isNull(apiKeys.revokedAt),
      );
      return (
        changedRows(await db.update(apiKeys).set({ revokedAt: now }).where(where).returning({ id: apiKeys.id })) > 0
      );
    },
    /** Every key of a user in a workspace, when they leave it. */
    async revokeAllOf(workspaceId: string, userId: string, now: number): Promise<number> {
      const where = and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt));
      return changedRows(await db.update(apiKeys).set({ revokedAt: now }).where(where).returning({ id: apiKeys.id }));
    },
    /** Revokes the user's live keys that carry any scope outside `allowed`. */
    async revokeBeyond(workspaceId: string, userId: string, allowed: string[], now: number): Promise<number> {
      const live = await db
        .select({ id: apiKeys.id, scopes: apiKeys.scopes })
        .from(apiKeys)
        .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
      let n = 0;
      for (const k of live.filter((k) => k.scopes.some((s) => !allowed.includes(s))))
        n += changedRows(
          await db.update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, k.id)).returning({ id: apiKeys.id }),
        );
      return n;
    },
    async listForWorkspace(workspaceId: string): Promise<ApiKeyRow[]> {
      return db.select().from(apiKeys).where(eq(apiKeys.workspaceId, workspaceId)).orderBy(apiKeys.createdAt);
    },
    async revoke(id: string, now: number): Promise<boolean> {
      return (
        changedRows(
          await db
            .update(apiKeys)
            .set({ revokedAt: now })
            .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
            .returning({ id: apiKeys.id }),
        ) > 0
      );
    },
  };
}

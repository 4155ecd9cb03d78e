import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../open.js";
import { apiKeys, workspaces } from "../schema/index.js";

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type KeyWithPlan = ApiKeyRow & { plan: "free" | "pro" | "enterprise" };

const CACHE_LIMIT = 10_000;

export function apiKeyRepo(db: Db) {
  const withPlanStmt = db
    .select({ key: apiKeys, plan: workspaces.plan })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(eq(apiKeys.keyHash, sql.placeholder("hash")))
    .prepare();

  // Every request resolves its key, so found keys are cached. The cache is dropped
  // whenever the database changes under us: PRAGMA data_version moves when another
  // connection commits (`notula admin` revoking a key or changing a plan), and
  // `localWrites` when this connection changes keys or plans.
  const dataVersion = db.$client.prepare("PRAGMA data_version").pluck();
  const cache = new Map<string, KeyWithPlan>();
  let cachedAt = { data: -1, local: -1 };
  let localWrites = 0;
  function fresh() {
    const data = dataVersion.get() as number;
    if (data !== cachedAt.data || localWrites !== cachedAt.local) {
      cache.clear();
      cachedAt = { data, local: localWrites };
    }
  }

  return {
    /** The key with its workspace's current plan. */
    findByHashWithPlan(hash: string): KeyWithPlan | null {
      fresh();
      const hit = cache.get(hash);
      if (hit) return hit;
      const row = withPlanStmt.get({ hash });
      if (!row) return null; // misses are not cached: random keys must not fill memory
      const found = { ...row.key, plan: row.plan };
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(hash, found);
      return found;
    },
    /** Call after this connection changes a workspace's plan. */
    invalidate(): void {
      localWrites++;
    },
    insert(row: ApiKeyRow): void {
      db.insert(apiKeys).values(row).run();
      localWrites++;
    },
    /** Records use; not a change the key cache needs to see. */
    touch(id: string, now: number): void {
      db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, id)).run();
    },
    listForUser(workspaceId: string, userId: string): ApiKeyRow[] {
      return db.select().from(apiKeys).where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.userId, userId))).orderBy(apiKeys.createdAt).all();
    },
    /** Revokes a key only if it belongs to this user in this workspace. */
    revokeOwn(workspaceId: string, userId: string, id: string, now: number): boolean {
      localWrites++;
      return (
        db
          .update(apiKeys)
          .set({ revokedAt: now })
          .where(and(eq(apiKeys.id, id), eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
          .run().changes > 0
      );
    },
    /** Every key of a user in a workspace, when they leave it. */
    revokeAllOf(workspaceId: string, userId: string, now: number): number {
      localWrites++;
      return db.update(apiKeys).set({ revokedAt: now }).where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt))).run().changes;
    },
    listForWorkspace(workspaceId: string): ApiKeyRow[] {
      return db.select().from(apiKeys).where(eq(apiKeys.workspaceId, workspaceId)).orderBy(apiKeys.createdAt).all();
    },
    revoke(id: string, now: number): boolean {
      localWrites++;
      return (
        db
          .update(apiKeys)
          .set({ revokedAt: now })
          .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
          .run().changes > 0
      );
    },
  };
}

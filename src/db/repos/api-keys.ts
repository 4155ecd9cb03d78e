import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../open.js";
import { apiKeys, workspaces } from "../schema.js";

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type KeyWithPlan = ApiKeyRow & { plan: "free" | "pro" | "enterprise" };

export function apiKeyRepo(db: Db) {
  // Runs on every request: prepared once.
  const withPlanStmt = db
    .select({ key: apiKeys, plan: workspaces.plan })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(eq(apiKeys.keyHash, sql.placeholder("hash")))
    .prepare();
  return {
    /** The key with its workspace's current plan. */
    findByHashWithPlan(hash: string): KeyWithPlan | null {
      const row = withPlanStmt.get({ hash });
      return row ? { ...row.key, plan: row.plan } : null;
    },
    insert(row: ApiKeyRow): void {
      db.insert(apiKeys).values(row).run();
    },
    findByHash(hash: string): ApiKeyRow | null {
      return db.select().from(apiKeys).where(eq(apiKeys.keyHash, hash)).get() ?? null;
    },
    listForWorkspace(workspaceId: string): ApiKeyRow[] {
      return db.select().from(apiKeys).where(eq(apiKeys.workspaceId, workspaceId)).orderBy(apiKeys.createdAt).all();
    },
    revoke(id: string, now: number): boolean {
      return (
        db
          .update(apiKeys)
          .set({ revokedAt: now })
          .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
          .run().changes > 0
      );
    },
    touch(id: string, now: number): void {
      db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, id)).run();
    },
  };
}

import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../open.js";
import { apiKeys } from "../schema.js";

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export function apiKeyRepo(db: Db) {
  return {
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

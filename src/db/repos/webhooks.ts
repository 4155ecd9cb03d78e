import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../open.js";
import type { webhooks } from "../schema/index.js";
import { first, sqliteTables, type Tables } from "./portable.js";

export type WebhookRow = typeof webhooks.$inferSelect;

export function webhookRepo(db: Db, t: Tables = sqliteTables) {
  const { webhooks } = t;
  return {
    /** Inserts unless the workspace already has this URL; returns the stored registration either way. */
    async upsert(row: WebhookRow): Promise<WebhookRow> {
      await db.insert(webhooks).values(row).onConflictDoNothing();
      return first(await db.select().from(webhooks).where(and(eq(webhooks.workspaceId, row.workspaceId), eq(webhooks.hookUrl, row.hookUrl))).limit(1))!;
    },
    async list(workspaceId: string): Promise<WebhookRow[]> {
      return db.select().from(webhooks).where(eq(webhooks.workspaceId, workspaceId)).orderBy(asc(webhooks.createdAt));
    },
    /** Back in service after an admin asked for it: its failure count starts again. */
    async enable(id: string): Promise<void> {
      await db.update(webhooks).set({ disabledAt: null, consecutiveFailures: 0 }).where(eq(webhooks.id, id));
    },
    async deleteByUrl(workspaceId: string, hookUrl: string): Promise<boolean> {
      const gone = await db
        .delete(webhooks)
        .where(and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.hookUrl, hookUrl)))
        .returning({ id: webhooks.id });
      return gone.length > 0;
    },
  };
}

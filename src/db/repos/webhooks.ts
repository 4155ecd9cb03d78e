import { and, asc, eq, isNull } from "drizzle-orm";
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
      return first(
        await db
          .select()
          .from(webhooks)
          .where(and(eq(webhooks.workspaceId, row.workspaceId), eq(webhooks.hookUrl, row.hookUrl)))
          .limit(1),
      )!;
    },
    async find(workspaceId: string, hookUrl: string): Promise<WebhookRow | null> {
      return first(
        await db
          .select()
          .from(webhooks)
          .where(and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.hookUrl, hookUrl)))
          .limit(1),
      );
    },
    async list(workspaceId: string): Promise<WebhookRow[]> {
      return db.select().from(webhooks).where(eq(webhooks.workspaceId, workspaceId)).orderBy(asc(webhooks.createdAt));
    },
    /** The live registrations with who made them: the audience of an event. */
    async live(workspaceId: string): Promise<{ id: string; createdByUserId: string | null }[]> {
      return db
        .select({ id: webhooks.id, createdByUserId: webhooks.createdByUserId })
        .from(webhooks)
        .where(and(eq(webhooks.workspaceId, workspaceId), isNull(webhooks.disabledAt)));
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

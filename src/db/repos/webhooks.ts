import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../open.js";
import { webhooks } from "../schema/index.js";

export type WebhookRow = typeof webhooks.$inferSelect;

export function webhookRepo(db: Db) {
  return {
    /** Inserts unless the workspace already has this URL; returns the stored registration either way. */
    upsert(row: WebhookRow): WebhookRow {
      return db.transaction((tx) => {
        tx.insert(webhooks).values(row).onConflictDoNothing().run();
        return tx
          .select()
          .from(webhooks)
          .where(and(eq(webhooks.workspaceId, row.workspaceId), eq(webhooks.hookUrl, row.hookUrl)))
          .get()!;
      });
    },
    list(workspaceId: string): WebhookRow[] {
      return db.select().from(webhooks).where(eq(webhooks.workspaceId, workspaceId)).orderBy(asc(webhooks.createdAt)).all();
    },
    /** Back in service after an admin asked for it: its failure count starts again. */
    enable(id: string): void {
      db.update(webhooks).set({ disabledAt: null, consecutiveFailures: 0 }).where(eq(webhooks.id, id)).run();
    },
    deleteByUrl(workspaceId: string, hookUrl: string): boolean {
      return (
        db
          .delete(webhooks)
          .where(and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.hookUrl, hookUrl)))
          .run().changes > 0
      );
    },
  };
}

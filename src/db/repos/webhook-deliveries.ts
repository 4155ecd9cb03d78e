import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../open.js";
import { webhookDeliveries, webhookEvents, webhooks } from "../schema/index.js";

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export function webhookDeliveryRepo(db: Db) {
  return {
    /** Writes the event and one pending delivery per active registration; returns the delivery ids. */
    record(event: typeof webhookEvents.$inferInsert): string[] {
      return db.transaction((tx) => {
        const targets = tx
          .select({ id: webhooks.id })
          .from(webhooks)
          .where(and(eq(webhooks.workspaceId, event.workspaceId), isNull(webhooks.disabledAt)))
          .all();
        if (!targets.length) return [];
        tx.insert(webhookEvents).values(event).run();
        const rows = targets.map((t) => ({
          id: `dlv_${event.id.slice(4)}_${t.id.slice(4)}`,
          eventId: event.id,
          webhookId: t.id,
          workspaceId: event.workspaceId,
          status: "pending" as const,
          attempts: 0,
          createdAt: event.createdAt,
          updatedAt: event.createdAt,
        }));
        tx.insert(webhookDeliveries).values(rows).run();
        return rows.map((r) => r.id);
      });
    },
    /** What a delivery attempt needs: the stored body and the registration. */
    load(deliveryId: string) {
      return (
        db
          .select({ delivery: webhookDeliveries, event: webhookEvents, webhook: webhooks })
          .from(webhookDeliveries)
          .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
          .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
          .where(eq(webhookDeliveries.id, deliveryId))
          .get() ?? null
      );
    },
    /** One delivery of the workspace, with its registration; null for any other workspace's. */
    get(workspaceId: string, id: string) {
      return (
        db
          .select({ delivery: webhookDeliveries, webhook: webhooks })
          .from(webhookDeliveries)
          .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
          .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.workspaceId, workspaceId)))
          .get() ?? null
      );
    },
    update(id: string, fields: Partial<DeliveryRow>): void {
      db.update(webhookDeliveries).set(fields).where(eq(webhookDeliveries.id, id)).run();
    },
    /** Counts a finally failed event against the registration; disables it at `limit`. Returns whether it is now disabled. */
    recordFailure(webhookId: string, limit: number, now: number): boolean {
      return db.transaction((tx) => {
        tx.update(webhooks).set({ consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1` }).where(eq(webhooks.id, webhookId)).run();
        const w = tx.select().from(webhooks).where(eq(webhooks.id, webhookId)).get();
        if (w && w.consecutiveFailures >= limit && w.disabledAt === null) {
          tx.update(webhooks).set({ disabledAt: now }).where(eq(webhooks.id, webhookId)).run();
          return true;
        }
        return Boolean(w?.disabledAt);
      });
    },
    recordSuccess(webhookId: string): void {
      db.update(webhooks).set({ consecutiveFailures: 0 }).where(eq(webhooks.id, webhookId)).run();
    },
    list(workspaceId: string, limit: number, offset: number) {
      return db
        .select({ delivery: webhookDeliveries, type: webhookEvents.type, hookUrl: webhooks.hookUrl })
        .from(webhookDeliveries)
        .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
        .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
        .where(eq(webhookDeliveries.workspaceId, workspaceId))
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .limit(limit + 1)
        .offset(offset)
        .all();
    },
  };
}

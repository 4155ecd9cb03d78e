import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../open.js";
import type { webhookDeliveries } from "../schema/index.js";
import { first, type Tables, type Transaction } from "./portable.js";

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export function webhookDeliveryRepo(db: Db, t: Tables, transaction: Transaction) {
  const { webhookDeliveries, webhookEvents, webhooks } = t;
  return {
    /** Writes the event and one pending delivery per active registration; returns the delivery ids. */
    /** Records the event with one delivery for each of `targets` (live registrations chosen by the caller). */
    async record(event: typeof webhookEvents.$inferInsert, targetIds: string[]): Promise<string[]> {
      return transaction(async () => {
        if (!targetIds.length) return [];
        const targets = await db
          .select({ id: webhooks.id })
          .from(webhooks)
          .where(
            and(
              eq(webhooks.workspaceId, event.workspaceId),
              isNull(webhooks.disabledAt),
              inArray(webhooks.id, targetIds),
            ),
          );
        if (!targets.length) return [];
        await db.insert(webhookEvents).values(event);
        const rows = targets.map((target) => ({
          id: `dlv_${event.id.slice(4)}_${target.id.slice(4)}`,
          eventId: event.id,
          webhookId: target.id,
          workspaceId: event.workspaceId,
          status: "pending" as const,
          attempts: 0,
          createdAt: event.createdAt,
          updatedAt: event.createdAt,
        }));
        await db.insert(webhookDeliveries).values(rows);
        return rows.map((r) => r.id);
      });
    },
    /** What a delivery attempt needs: the stored body and the registration. */
    async load(deliveryId: string) {
      return first(
        await db
          .select({ delivery: webhookDeliveries, event: webhookEvents, webhook: webhooks })
          .from(webhookDeliveries)
          .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
          .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
          .where(eq(webhookDeliveries.id, deliveryId))
          .limit(1),
      );
    },
    /** One delivery of the workspace, with its registration; null for any other workspace's. */
    async get(workspaceId: string, id: string) {
      return first(
        await db
          .select({ delivery: webhookDeliveries, webhook: webhooks })
          .from(webhookDeliveries)
          .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
          .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.workspaceId, workspaceId)))
          .limit(1),
      );
    },
    async update(id: string, fields: Partial<DeliveryRow>): Promise<void> {
      await db.update(webhookDeliveries).set(fields).where(eq(webhookDeliveries.id, id));
    },
    /**
     * Counts a finally failed event against the registration; disables it at `limit`.
     * Returns whether it is now disabled. Each step is one atomic statement.
     */
    async recordFailure(webhookId: string, limit: number, now: number): Promise<boolean> {
      const w = first(
        await db
          .update(webhooks)
          .set({ consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1` })
          .where(eq(webhooks.id, webhookId))
          .returning({ failures: webhooks.consecutiveFailures, disabledAt: webhooks.disabledAt }),
      );
      if (!w) return false;
      if (w.disabledAt !== null) return true;
      if (w.failures < limit) return false;
      await db
        .update(webhooks)
        .set({ disabledAt: now })
        .where(and(eq(webhooks.id, webhookId), isNull(webhooks.disabledAt)));
      return true;
    },
    async recordSuccess(webhookId: string): Promise<void> {
      await db.update(webhooks).set({ consecutiveFailures: 0 }).where(eq(webhooks.id, webhookId));
    },
    /** A page of the workspace's deliveries: all, or those of one person's registrations. */
    async list(workspaceId: string, limit: number, offset: number, ownerUserId?: string) {
      return db
        .select({ delivery: webhookDeliveries, type: webhookEvents.type, hookUrl: webhooks.hookUrl })
        .from(webhookDeliveries)
        .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
        .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
        .where(
          ownerUserId === undefined
            ? eq(webhookDeliveries.workspaceId, workspaceId)
            : and(eq(webhookDeliveries.workspaceId, workspaceId), eq(webhooks.createdByUserId, ownerUserId)),
        )
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .limit(limit + 1)
        .offset(offset);
    },
  };
}

// State that any replica may need to finish what another began: sign-ins in progress
// and MCP sessions. Written with awaited query builders only, the form that runs
// unchanged on both SQLite and PostgreSQL.
import { and, eq, gt, gte, lte } from "drizzle-orm";
import type { Db } from "../open.js";
import type { mcpSessions, pendingStates } from "../schema/index.js";
import { sql } from "drizzle-orm";
import { sqliteTables, type Tables } from "./portable.js";

export type PendingKind = (typeof pendingStates.$inferSelect)["kind"];
export type McpSessionRow = typeof mcpSessions.$inferSelect;

export function sharedStateRepo(db: Db, t: Tables = sqliteTables) {
  const { idempotencyKeys, mcpSessions, pendingStates, rateCounters } = t;

  /** Counts `amount` more (one by default) in a slot of a sliding window, atomically across replicas. */
  async function addCount(key: string, slotStart: number, expiresAt: number, amount = 1): Promise<void> {
    await db
      .insert(rateCounters)
      .values({ key, windowStart: slotStart, count: amount, expiresAt })
      .onConflictDoUpdate({
        target: [rateCounters.key, rateCounters.windowStart],
        set: { count: sql`${rateCounters.count} + ${amount}` },
      });
  }

  /** A key's slots from `from` on, oldest first: one range of the primary key. */
  async function countsSince(key: string, from: number): Promise<{ start: number; count: number }[]> {
    return db
      .select({ start: rateCounters.windowStart, count: rateCounters.count })
      .from(rateCounters)
      .where(and(eq(rateCounters.key, key), gte(rateCounters.windowStart, from), gt(rateCounters.count, 0)))
      .orderBy(rateCounters.windowStart);
  }

  return {
    async putPending(
      kind: PendingKind,
      keyHash: string,
      value: Record<string, unknown>,
      expiresAt: number,
    ): Promise<void> {
      await db.insert(pendingStates).values({ kind, keyHash, value, expiresAt });
    },

    /** Records that an OAuth grant has ended, until its last access token would have run out. */
    async markRevokedGrant(keyHash: string, expiresAt: number): Promise<void> {
      await db
        .insert(pendingStates)
        .values({ kind: "revoked-grant", keyHash, value: {}, expiresAt })
        .onConflictDoNothing();
    },

    async isRevokedGrant(keyHash: string, now: number): Promise<boolean> {
      const [row] = await db
        .select({ k: pendingStates.keyHash })
        .from(pendingStates)
        .where(
          and(
            eq(pendingStates.kind, "revoked-grant"),
            eq(pendingStates.keyHash, keyHash),
            gt(pendingStates.expiresAt, now),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** Takes a pending state once: it is gone after, whether or not it had expired. */
    async takePending(kind: PendingKind, keyHash: string, now: number): Promise<Record<string, unknown> | null> {
      const [row] = await db
        .delete(pendingStates)
        .where(and(eq(pendingStates.kind, kind), eq(pendingStates.keyHash, keyHash)))
        .returning({ value: pendingStates.value, expiresAt: pendingStates.expiresAt });
      return row && row.expiresAt > now ? row.value : null;
    },

    async putMcpSession(row: McpSessionRow): Promise<void> {
      await db.insert(mcpSessions).values(row);
    },

    /** A live session; null when unknown or expired. */
    async liveMcpSession(idHash: string, now: number): Promise<McpSessionRow | null> {
      const [row] = await db
        .select()
        .from(mcpSessions)
        .where(and(eq(mcpSessions.idHash, idHash), gt(mcpSessions.expiresAt, now)))
        .limit(1);
      return row ?? null;
    },

    /** A live session, its idle time extended; null when unknown or expired. */
    async touchMcpSession(idHash: string, now: number, idleMs: number): Promise<McpSessionRow | null> {
      const [row] = await db
        .update(mcpSessions)
        .set({ lastSeenAt: now, expiresAt: now + idleMs })
        .where(and(eq(mcpSessions.idHash, idHash), gt(mcpSessions.expiresAt, now)))
        .returning();
      return row ?? null;
    },

    async removeMcpSession(idHash: string): Promise<void> {
      await db.delete(mcpSessions).where(eq(mcpSessions.idHash, idHash));
    },

    addCount,
    /** addCount, then countsSince (PostgreSQL's repositories do both in one statement). */
    async addCountAndRead(
      key: string,
      slotStart: number,
      expiresAt: number,
      from: number,
      amount = 1,
    ): Promise<{ start: number; count: number }[]> {
      await addCount(key, slotStart, expiresAt, amount);
      return countsSince(key, from);
    },
    /** Takes `amount` (one by default) back from a slot, never below zero. */
    async undoCount(key: string, slotStart: number, amount = 1): Promise<void> {
      await db
        .update(rateCounters)
        .set({
          count: sql`CASE WHEN ${rateCounters.count} > ${amount} THEN ${rateCounters.count} - ${amount} ELSE 0 END`,
        })
        .where(and(eq(rateCounters.key, key), eq(rateCounters.windowStart, slotStart), gt(rateCounters.count, 0)));
    },
    countsSince,
    async clearCounter(key: string): Promise<void> {
      await db.delete(rateCounters).where(eq(rateCounters.key, key));
    },

    /** Removes what has expired; returns how many rows went. */
    async sweep(now: number): Promise<number> {
      const a = await db
        .delete(pendingStates)
        .where(lte(pendingStates.expiresAt, now))
        .returning({ k: pendingStates.keyHash });
      const b = await db
        .delete(mcpSessions)
        .where(lte(mcpSessions.expiresAt, now))
        .returning({ k: mcpSessions.idHash });
      const c = await db
        .delete(rateCounters)
        .where(lte(rateCounters.expiresAt, now))
        .returning({ k: rateCounters.key });
      const d = await db
        .delete(idempotencyKeys)
        .where(lte(idempotencyKeys.expiresAt, now))
        .returning({ k: idempotencyKeys.keyHash });
      return a.length + b.length + c.length + d.length;
    },
  };
}

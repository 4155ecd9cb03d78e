// Idempotency-Keys of note-creating requests (schema/sessions.ts): claimed before the
// note is made, completed with its id, released when making it failed.
import { and, eq, isNull, lte, or } from "drizzle-orm";
import type { Db } from "../open.js";
import type { idempotencyKeys } from "../schema/index.js";
import { first, sqliteTables, type Tables } from "./portable.js";

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
type KeyOf = Pick<IdempotencyKeyRow, "workspaceId" | "userId" | "keyHash">;

export function idempotencyKeyRepo(db: Db, t: Tables = sqliteTables) {
  const { idempotencyKeys: k } = t;
  const is = (key: KeyOf) =>
    and(eq(k.workspaceId, key.workspaceId), eq(k.userId, key.userId), eq(k.keyHash, key.keyHash));
  return {
    /**
     * Claims the key for a request (noteId null), taking over one that expired, or a
     * claim made before `abandonedBefore` that never got its note (its process died);
     * the row already there otherwise. One statement, so that of two racing requests one claims.
     */
    async claim(
      row: IdempotencyKeyRow,
      now: number,
      abandonedBefore: number,
    ): Promise<{ claimed: true; row: IdempotencyKeyRow } | { claimed: false; row: IdempotencyKeyRow | null }> {
      const [taken] = await db
        .insert(k)
        .values(row)
        .onConflictDoUpdate({
          target: [k.workspaceId, k.userId, k.keyHash],
          set: { requestHash: row.requestHash, noteId: null, createdAt: row.createdAt, expiresAt: row.expiresAt },
          setWhere: or(lte(k.expiresAt, now), and(isNull(k.noteId), lte(k.createdAt, abandonedBefore))),
        })
        .returning();
      if (taken) return { claimed: true, row: taken };
      // Null when it went between the two statements (its claim released): the caller may try again.
      return { claimed: false, row: first(await db.select().from(k).where(is(row)).limit(1)) };
    },
    async complete(key: KeyOf, noteId: string): Promise<void> {
      await db.update(k).set({ noteId }).where(is(key));
    },
    async release(key: KeyOf): Promise<void> {
      await db.delete(k).where(is(key));
    },
  };
}

// What a model noted of a meeting's parts while it was recorded (schema/processing.ts
// summaryParts): read back by digest when the note is written, then dropped.
import { and, eq } from "drizzle-orm";
import type { Db } from "../open.js";
import { first, sqliteTables, type Tables } from "./portable.js";

export function summaryPartRepo(db: Db, t: Tables = sqliteTables) {
  const { summaryParts: p } = t;
  return {
    async get(noteId: string, digest: string): Promise<string | null> {
      const row = first(
        await db
          .select({ content: p.content })
          .from(p)
          .where(and(eq(p.noteId, noteId), eq(p.digest, digest)))
          .limit(1),
      );
      return row?.content ?? null;
    },
    /** Keeps a part's notes; the same digest kept twice (two readers at once) keeps the first. */
    async put(noteId: string, digest: string, content: string, now: number): Promise<void> {
      await db.insert(p).values({ noteId, digest, content, createdAt: now }).onConflictDoNothing();
    },
    async count(noteId: string): Promise<number> {
      return (await db.select({ digest: p.digest }).from(p).where(eq(p.noteId, noteId))).length;
    },
    async clear(noteId: string): Promise<void> {
      await db.delete(p).where(eq(p.noteId, noteId));
    },
  };
}

// A note's history (schema/notes.ts): its versions, newest first, and a person's saves
// of one part within minutes kept as one version.
import { and, desc, eq, max } from "drizzle-orm";
import type { Db } from "../open.js";
import type { noteVersions } from "../schema/index.js";
import { first, sqliteTables, type Tables } from "./portable.js";

export type NoteVersionRow = typeof noteVersions.$inferSelect;

export function noteVersionRepo(db: Db, t: Tables = sqliteTables) {
  const { noteVersions: v } = t;
  return {
    /** Adds a version after the note's last. */
    async add(row: Omit<NoteVersionRow, "seq">): Promise<void> {
      const [last] = await db
        .select({ seq: max(v.seq) })
        .from(v)
        .where(eq(v.noteId, row.noteId));
      await db.insert(v).values({ ...row, seq: Number(last?.seq ?? 0) + 1 });
    },
    /** A version's part written anew (a person's save that continues their last). */
    async rewrite(id: string, content: string, updatedAt: number): Promise<void> {
      await db.update(v).set({ content, updatedAt }).where(eq(v.id, id));
    },
    /** The note's latest version of a part, or null. */
    async latest(noteId: string, part: string): Promise<NoteVersionRow | null> {
      return first(
        await db
          .select()
          .from(v)
          .where(and(eq(v.noteId, noteId), eq(v.part, part)))
          .orderBy(desc(v.seq))
          .limit(1),
      );
    },
    async forNote(noteId: string, limit: number, offset: number): Promise<NoteVersionRow[]> {
      return await db.select().from(v).where(eq(v.noteId, noteId)).orderBy(desc(v.seq)).limit(limit).offset(offset);
    },
    async get(noteId: string, id: string): Promise<NoteVersionRow | null> {
      return first(
        await db
          .select()
          .from(v)
          .where(and(eq(v.noteId, noteId), eq(v.id, id)))
          .limit(1),
      );
    },
  };
}

// Share links of public notes.
import { eq } from "drizzle-orm";
import type { Db } from "../open.js";
import type { noteShares } from "../schema/index.js";
import { first, sqliteTables, type Tables } from "./portable.js";

export type NoteShareRow = typeof noteShares.$inferSelect;

export function shareRepo(db: Db, t: Tables = sqliteTables) {
  const { noteShares } = t;
  return {
    forNote: async (noteId: string): Promise<NoteShareRow | null> =>
      first(await db.select().from(noteShares).where(eq(noteShares.noteId, noteId)).limit(1)),
    byToken: async (token: string): Promise<NoteShareRow | null> =>
      first(await db.select().from(noteShares).where(eq(noteShares.token, token)).limit(1)),
    async insert(row: NoteShareRow): Promise<void> {
      await db.insert(noteShares).values(row).onConflictDoNothing();
    },
    async setTranscript(noteId: string, includeTranscript: boolean): Promise<void> {
      await db.update(noteShares).set({ includeTranscript }).where(eq(noteShares.noteId, noteId));
    },
    async setRecording(noteId: string, includeRecording: boolean): Promise<void> {
      await db.update(noteShares).set({ includeRecording }).where(eq(noteShares.noteId, noteId));
    },
    async remove(noteId: string): Promise<void> {
      await db.delete(noteShares).where(eq(noteShares.noteId, noteId));
    },
  };
}

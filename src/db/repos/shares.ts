// Share links of public notes.
import { eq, sql } from "drizzle-orm";
import type { Db } from "../open.js";
import { noteShares } from "../schema/index.js";

export type NoteShareRow = typeof noteShares.$inferSelect;

export function shareRepo(db: Db) {
  const forNoteStmt = db.select().from(noteShares).where(eq(noteShares.noteId, sql.placeholder("id"))).prepare();
  return {
    forNote: (noteId: string): NoteShareRow | null => (forNoteStmt.get({ id: noteId }) as NoteShareRow | undefined) ?? null,
    byToken: (token: string): NoteShareRow | null => db.select().from(noteShares).where(eq(noteShares.token, token)).get() ?? null,
    insert: (row: NoteShareRow) => void db.insert(noteShares).values(row).onConflictDoNothing().run(),
    setTranscript: (noteId: string, includeTranscript: boolean) => void db.update(noteShares).set({ includeTranscript }).where(eq(noteShares.noteId, noteId)).run(),
    remove: (noteId: string) => void db.delete(noteShares).where(eq(noteShares.noteId, noteId)).run(),
  };
}

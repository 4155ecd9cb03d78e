// A note's voices and a workspace's voice prints (see schema/voices.ts). Every read
// and write of a print is by its workspace.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../open.js";
import type { voicePrints } from "../schema/index.js";
import { first, sqliteTables, type Tables } from "./portable.js";

export type VoicePrintRow = typeof voicePrints.$inferSelect;

export function voiceRepo(db: Db, t: Tables = sqliteTables) {
  const { noteVoices, voicePrints } = t;
  const inWorkspace = (workspaceId: string) => eq(voicePrints.workspaceId, workspaceId);
  return {
    /** Replaces what a note's voices were (a new transcript has new voices). */
    async setNoteVoices(noteId: string, voices: { label: string; embedding: number[] }[]): Promise<void> {
      await db.delete(noteVoices).where(eq(noteVoices.noteId, noteId));
      if (voices.length) await db.insert(noteVoices).values(voices.map((v) => ({ noteId, ...v })));
    },
    async noteVoice(noteId: string, label: string): Promise<number[] | null> {
      const row = first(
        await db
          .select({ embedding: noteVoices.embedding })
          .from(noteVoices)
          .where(and(eq(noteVoices.noteId, noteId), eq(noteVoices.label, label)))
          .limit(1),
      );
      return row?.embedding ?? null;
    },
    prints: (workspaceId: string): Promise<VoicePrintRow[]> =>
      db.select().from(voicePrints).where(inWorkspace(workspaceId)),
    /** The print named by this email, else by this name (either case). */
    async printNamed(workspaceId: string, name: string, email: string | null): Promise<VoicePrintRow | null> {
      const by = email
        ? sql`lower(${voicePrints.email}) = ${email.toLowerCase()}`
        : sql`${voicePrints.email} IS NULL AND lower(${voicePrints.name}) = ${name.toLowerCase()}`;
      return first(
        await db
          .select()
          .from(voicePrints)
          .where(and(inWorkspace(workspaceId), by))
          .limit(1),
      );
    },
    async savePrint(row: VoicePrintRow): Promise<void> {
      await db
        .insert(voicePrints)
        .values(row)
        .onConflictDoUpdate({
          target: voicePrints.id,
          set: { name: row.name, embedding: row.embedding, samples: row.samples, updatedAt: row.updatedAt },
        });
    },
    /** Forgets the voice of whoever had this address (their membership ended). */
    async removeForEmail(workspaceId: string, email: string): Promise<void> {
      await db
        .delete(voicePrints)
        .where(and(inWorkspace(workspaceId), sql`lower(${voicePrints.email}) = ${email.toLowerCase()}`));
    },
  };
}

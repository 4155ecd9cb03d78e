import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../open.js";
import type { SpeakerNameRow } from "../stores/note-store.js";
import type { Tables } from "./portable.js";

export type { SpeakerNameRow };

export function speakerRepo(db: Db, t: Tables) {
  const { noteSpeakers } = t;
  return {
    /** The names given to the labels of several notes (a page of search results): by note, then label. */
    async namesOfNotes(noteIds: string[]): Promise<Map<string, Map<string, SpeakerNameRow>>> {
      const out = new Map<string, Map<string, SpeakerNameRow>>(noteIds.map((id) => [id, new Map()]));
      if (!noteIds.length) return out;
      for (const r of await db
        .select()
        .from(noteSpeakers)
        .where(inArray(noteSpeakers.noteId, noteIds))
        .orderBy(asc(noteSpeakers.label)))
        out.get(r.noteId)?.set(r.label, r);
      return out;
    },
    /** The names given to a note's labels, by label. */
    async namesOf(noteId: string): Promise<Map<string, SpeakerNameRow>> {
      const rows = await db
        .select()
        .from(noteSpeakers)
        .where(eq(noteSpeakers.noteId, noteId))
        .orderBy(asc(noteSpeakers.label));
      return new Map(rows.map((r) => [r.label, r]));
    },
    async name(row: SpeakerNameRow): Promise<void> {
      await db
        .insert(noteSpeakers)
        .values(row)
        .onConflictDoUpdate({
          target: [noteSpeakers.noteId, noteSpeakers.label],
          set: { name: row.name, email: row.email, suggested: row.suggested, updatedAt: row.updatedAt },
        });
    },
    /** Offers a name to a label nobody has named (a name given by a person is never replaced). */
    async suggest(row: SpeakerNameRow): Promise<void> {
      await db.insert(noteSpeakers).values(row).onConflictDoNothing();
    },
    async unname(noteId: string, label: string): Promise<void> {
      await db.delete(noteSpeakers).where(and(eq(noteSpeakers.noteId, noteId), eq(noteSpeakers.label, label)));
    },
  };
}

// Notes and their parts (participants, transcript segments, folder links).
// The list query is built to be served by the indexes in schema.ts.
import { and, asc, desc, eq, gte, inArray, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { escapeLike } from "../like.js";
import type { Db } from "../open.js";
import { folders, noteFolders, noteParticipants, notes, transcriptSegments } from "../schema.js";

export type NoteRow = typeof notes.$inferSelect;
export type ParticipantRow = Omit<typeof noteParticipants.$inferSelect, "noteId" | "position" | "emailNorm">;
export type SegmentRow = Omit<typeof transcriptSegments.$inferSelect, "noteId" | "position">;
export type NoteSummaryRow = Omit<NoteRow, "enhancedNote" | "summary" | "seq">;

export interface NoteListFilter {
  limit: number;
  offset: number;
  sortBy: "createdAt" | "updatedAt" | "title";
  sortOrder: "asc" | "desc";
  status?: string;
  kind?: string;
  search?: string;
  createdBy?: string;
  fromDate?: number;
  toDate?: number;
  folderIds?: string[];
  participantEmail?: string;
}

const summaryColumns = {
  id: notes.id,
  workspaceId: notes.workspaceId,
  createdBy: notes.createdBy,
  title: notes.title,
  kind: notes.kind,
  status: notes.status,
  visibility: notes.visibility,
  userWrittenNote: notes.userWrittenNote,
  totalDurationSec: notes.totalDurationSec,
  calendarEvent: notes.calendarEvent,
  inputLanguage: notes.inputLanguage,
  translationLanguage: notes.translationLanguage,
  meetingApp: notes.meetingApp,
  processingError: notes.processingError,
  createdAt: notes.createdAt,
  updatedAt: notes.updatedAt,
};

/** A note is visible to everyone in its workspace unless it is only-me, then to its creator alone. */
function visibleTo(workspaceId: string, viewerUserId: string): SQL {
  return and(eq(notes.workspaceId, workspaceId), or(ne(notes.visibility, "only-me"), eq(notes.createdBy, viewerUserId)))!;
}

function titleMatch(search: string): SQL {
  // The trigram index answers substrings of three characters or more; shorter ones scan.
  if ([...search].length >= 3) {
    const phrase = `"${search.replace(/"/g, '""')}"`;
    return sql`${notes.seq} IN (SELECT rowid FROM notes_title_fts WHERE notes_title_fts MATCH ${phrase})`;
  }
  return sql`${notes.title} LIKE ${`%${escapeLike(search)}%`} ESCAPE '\\'`;
}

export interface NewNote {
  row: Omit<NoteRow, "seq">;
  participants: ParticipantRow[];
  segments: SegmentRow[];
  folderIds: string[];
}

export function noteRepo(db: Db) {
  return {
    insert(note: NewNote): void {
      db.transaction((tx) => {
        tx.insert(notes).values(note.row).run();
        if (note.participants.length)
          tx.insert(noteParticipants)
            .values(
              note.participants.map((p, position) => ({ ...p, noteId: note.row.id, position, emailNorm: p.email.toLowerCase() })),
            )
            .run();
        // Chunked: SQLite limits the number of bound parameters per statement.
        for (let i = 0; i < note.segments.length; i += 500)
          tx.insert(transcriptSegments)
            .values(note.segments.slice(i, i + 500).map((s, j) => ({ ...s, noteId: note.row.id, position: i + j })))
            .run();
        if (note.folderIds.length)
          tx.insert(noteFolders)
            .values(note.folderIds.map((folderId) => ({ noteId: note.row.id, folderId })))
            .run();
      });
    },

    get(workspaceId: string, viewerUserId: string, id: string): NoteRow | null {
      return db.select().from(notes).where(and(visibleTo(workspaceId, viewerUserId), eq(notes.id, id))).get() ?? null;
    },

    /** One page plus one row, so the caller can tell whether another page follows. */
    list(workspaceId: string, viewerUserId: string, f: NoteListFilter): NoteSummaryRow[] {
      const where: SQL[] = [visibleTo(workspaceId, viewerUserId)];
      if (f.status) where.push(eq(notes.status, f.status));
      if (f.kind) where.push(eq(notes.kind, f.kind as NoteRow["kind"]));
      if (f.createdBy) where.push(eq(notes.createdBy, f.createdBy));
      if (f.fromDate !== undefined) where.push(gte(notes.createdAt, f.fromDate));
      if (f.toDate !== undefined) where.push(lt(notes.createdAt, f.toDate));
      if (f.search) where.push(titleMatch(f.search));
      if (f.folderIds?.length)
        where.push(
          inArray(notes.id, db.select({ id: noteFolders.noteId }).from(noteFolders).where(inArray(noteFolders.folderId, f.folderIds))),
        );
      if (f.participantEmail)
        where.push(
          inArray(
            notes.id,
            db
              .select({ id: noteParticipants.noteId })
              .from(noteParticipants)
              .where(eq(noteParticipants.emailNorm, f.participantEmail.toLowerCase())),
          ),
        );
      const dir = f.sortOrder === "asc" ? asc : desc;
      const key =
        f.sortBy === "title" ? sql`${notes.title} COLLATE NOCASE` : f.sortBy === "updatedAt" ? notes.updatedAt : notes.createdAt;
      return db
        .select(summaryColumns)
        .from(notes)
        .where(and(...where))
        .orderBy(dir(key), dir(notes.id))
        .limit(f.limit + 1)
        .offset(f.offset)
        .all() as NoteSummaryRow[];
    },

    foldersOf(noteIds: string[]): Map<string, { id: string; name: string; color: string }[]> {
      const out = new Map<string, { id: string; name: string; color: string }[]>();
      if (noteIds.length === 0) return out;
      const rows = db
        .select({ noteId: noteFolders.noteId, id: folders.id, name: folders.name, color: folders.color })
        .from(noteFolders)
        .innerJoin(folders, eq(folders.id, noteFolders.folderId))
        .where(inArray(noteFolders.noteId, noteIds))
        .orderBy(asc(folders.name))
        .all();
      for (const { noteId, ...tag } of rows) out.set(noteId, [...(out.get(noteId) ?? []), tag]);
      return out;
    },

    participantsOf(noteIds: string[]): Map<string, ParticipantRow[]> {
      const out = new Map<string, ParticipantRow[]>();
      if (noteIds.length === 0) return out;
      const rows = db
        .select()
        .from(noteParticipants)
        .where(inArray(noteParticipants.noteId, noteIds))
        .orderBy(asc(noteParticipants.noteId), asc(noteParticipants.position))
        .all();
      for (const { noteId, position: _p, emailNorm: _e, ...p } of rows) out.set(noteId, [...(out.get(noteId) ?? []), p]);
      return out;
    },

    segmentsOf(noteId: string): SegmentRow[] {
      return db
        .select({
          speaker: transcriptSegments.speaker,
          text: transcriptSegments.text,
          startSec: transcriptSegments.startSec,
          endSec: transcriptSegments.endSec,
        })
        .from(transcriptSegments)
        .where(eq(transcriptSegments.noteId, noteId))
        .orderBy(asc(transcriptSegments.position))
        .all();
    },

    update(workspaceId: string, id: string, patch: Partial<Omit<NoteRow, "seq" | "id">>, folderIds?: string[]): boolean {
      return db.transaction((tx) => {
        const changed = tx
          .update(notes)
          .set(patch)
          .where(and(eq(notes.workspaceId, workspaceId), eq(notes.id, id)))
          .run().changes;
        if (!changed) return false;
        if (folderIds) {
          tx.delete(noteFolders).where(eq(noteFolders.noteId, id)).run();
          if (folderIds.length) tx.insert(noteFolders).values(folderIds.map((folderId) => ({ noteId: id, folderId }))).run();
        }
        return true;
      });
    },

    delete(workspaceId: string, viewerUserId: string, id: string): boolean {
      return db.delete(notes).where(and(visibleTo(workspaceId, viewerUserId), eq(notes.id, id))).run().changes > 0;
    },
  };
}

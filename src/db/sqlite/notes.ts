// Notes and their parts (participants, transcript segments, folder links).
// Reads are prepared once (drizzle builds SQL per call otherwise, which costs more
// than the query itself); the list's statements, one per filter shape, are in
// notes-list.ts; the indexes that serve them in schema.ts.
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../open.js";
import { withoutCitations } from "../../shared/note-links.js";
import { groupRows } from "../repos/group-rows.js";
import {
  folders,
  noteFolders,
  noteParticipantEmails,
  notes,
  noteSpeakers,
  transcriptSegments,
} from "../schema/index.js";
import type { NoteView } from "../../core/access.js";
import type { Synchronous } from "../stores/synchronous.js";
import {
  changesSearchText,
  inChunks,
  participantEmails,
  participantsText,
  segmentFields,
  storedSegment,
  withProgressReset,
} from "../stores/note-rules.js";
import { P, viewParams, visibleTo } from "./note-view-sql.js";
import { sqliteNoteList, type NoteRepoOptions } from "./notes-list.js";
import type {
  NewNote,
  NotePatch,
  NoteRow,
  NoteStore,
  NoteTagRow,
  NoteWithParts,
  ProcessingFields,
  SegmentRow,
  SpeakerNameRow,
  StoredSegment,
  TranscriptFields,
} from "../stores/note-store.js";

/** Ids as one JSON parameter, expanded by json_each: one prepared statement for any count. */
const jsonIds = (ids: string[]) => JSON.stringify(ids);

export function noteRepo(db: Db, options: NoteRepoOptions = {}): Synchronous<NoteStore> {
  const getStmts = [false, true].map((hidden) =>
    db
      .select()
      .from(notes)
      .where(and(visibleTo(hidden), eq(notes.id, P("id"))))
      .prepare(),
  );
  const segmentsStmt = db
    .select(segmentFields(transcriptSegments))
    .from(transcriptSegments)
    .where(eq(transcriptSegments.noteId, P("id")))
    .orderBy(asc(transcriptSegments.position))
    .prepare();
  const speakerNamesStmt = db
    .select()
    .from(noteSpeakers)
    .where(eq(noteSpeakers.noteId, P("id")))
    .orderBy(asc(noteSpeakers.label))
    .prepare();
  const foldersOfStmt = db
    .select({ noteId: noteFolders.noteId, id: folders.id, name: folders.name, color: folders.color })
    .from(noteFolders)
    .innerJoin(folders, eq(folders.id, noteFolders.folderId))
    .where(sql`${noteFolders.noteId} IN (SELECT value FROM json_each(${P("ids")}))`)
    .orderBy(asc(folders.name))
    .prepare();
  // The content search index (notes_fts, rowid = seq): rebuilt for a note whenever
  // what it says changes, inside the same transaction as the change.
  const reindexStmt = {
    source: db.$client.prepare(
      "SELECT seq, title, user_written_note, summary, enhanced_note, participants FROM notes WHERE id = ?",
    ),
    transcript: db.$client.prepare("SELECT text FROM transcript_segments WHERE note_id = ? ORDER BY position").pluck(),
    remove: db.$client.prepare("DELETE FROM notes_fts WHERE rowid = ?"),
    add: db.$client.prepare("INSERT INTO notes_fts(rowid, title, body) VALUES (?, ?, ?)"),
  };
  // The moment index (segments_fts, rowid = (seq << 20) + position): one note's
  // segments are one rowid range, replaced with its transcript.
  const segmentIndexStmt = {
    remove: db.$client.prepare("DELETE FROM segments_fts WHERE rowid BETWEEN (? << 20) AND (? << 20) + 1048575"),
    add: db.$client.prepare(
      "INSERT INTO segments_fts(rowid, text) SELECT (n.seq << 20) + t.position, t.text FROM transcript_segments t JOIN notes n ON n.id = t.note_id WHERE t.note_id = ? AND t.position < 1048576",
    ),
  };
  function indexSegments(id: string, seq: number) {
    segmentIndexStmt.remove.run(seq, seq);
    segmentIndexStmt.add.run(id);
  }
  function reindex(id: string) {
    const n = reindexStmt.source.get(id) as
      | {
          seq: number;
          title: string;
          user_written_note: string;
          summary: string;
          enhanced_note: string;
          participants: string;
        }
      | undefined;
    if (!n) return;
    // Who was there last, as the migration that added them wrote it (drizzle/0026).
    const body = [
      n.user_written_note,
      withoutCitations(n.summary),
      withoutCitations(n.enhanced_note),
      ...(reindexStmt.transcript.all(id) as string[]),
      participantsText(JSON.parse(n.participants) as { name: string; email: string }[]),
    ]
      .filter(Boolean)
      .join("\n");
    reindexStmt.remove.run(n.seq);
    reindexStmt.add.run(n.seq, n.title, body);
    return n.seq;
  }

  const listJson = sqliteNoteList(db, options);

  type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
  /** A note whatever its visibility: for the processing pipeline, which reads for no viewer. */
  const forProcessing = (id: string): NoteRow | null => db.select().from(notes).where(eq(notes.id, id)).get() ?? null;

  /** A note's row with its transcript, folders and speaker names. */
  function withParts(row: NoteRow): NoteWithParts {
    const { id } = row;
    return {
      row,
      segments: segmentsStmt.all({ id }) as StoredSegment[],
      tags: (foldersOfStmt.all({ ids: jsonIds([id]) }) as NoteTagRow[]).map(({ id, name, color }) => ({
        id,
        name,
        color,
      })),
      speakerNames: speakerNamesStmt.all({ id }) as SpeakerNameRow[],
    };
  }

  function insertSegments(tx: Tx, noteId: string, segments: SegmentRow[]) {
    for (const chunk of inChunks(segments))
      tx.insert(transcriptSegments)
        .values(chunk.rows.map((s, j) => ({ ...storedSegment(s), noteId, position: chunk.start + j })))
        .run();
  }

  return {
    insert(note: NewNote): void {
      db.transaction((tx) => {
        tx.insert(notes).values(note.row).run();
        const emails = participantEmails(note.row.participants);
        if (emails.length)
          tx.insert(noteParticipantEmails)
            .values(emails.map((emailNorm) => ({ noteId: note.row.id, emailNorm })))
            .run();
        insertSegments(tx, note.row.id, note.segments);
        if (note.folderIds.length)
          tx.insert(noteFolders)
            .values(
              note.folderIds.map((folderId) => ({ noteId: note.row.id, folderId, noteCreatedAt: note.row.createdAt })),
            )
            .run();
        const seq = reindex(note.row.id);
        if (seq !== undefined && note.segments.length) indexSegments(note.row.id, seq);
      });
    },

    /** The note, when the view lets the viewer see it. */
    get(view: NoteView, id: string): NoteRow | null {
      return (
        (getStmts[view.hiddenFolderIds.length ? 1 : 0].get({ ...viewParams(view), id }) as NoteRow | undefined) ?? null
      );
    },

    bySourceHash(workspaceId: string, sourceHash: string) {
      return (
        db
          .select({ id: notes.id, title: notes.title })
          .from(notes)
          .where(and(eq(notes.workspaceId, workspaceId), eq(notes.sourceHash, sourceHash)))
          .get() ?? null
      );
    },

    getWithParts(view: NoteView, id: string): NoteWithParts | null {
      const row = (getStmts[view.hiddenFolderIds.length ? 1 : 0].get({ ...viewParams(view), id }) as NoteRow) ?? null;
      return row ? withParts(row) : null;
    },

    getWithPartsForProcessing(id: string): NoteWithParts | null {
      const row = forProcessing(id);
      return row ? withParts(row) : null;
    },

    listJson,

    foldersOf(noteIds: string[]): Map<string, NoteTagRow[]> {
      if (noteIds.length === 0) return new Map();
      return groupRows(foldersOfStmt.all({ ids: jsonIds(noteIds) }) as (NoteTagRow & { noteId: string })[], "noteId");
    },

    segmentsOf(noteId: string): StoredSegment[] {
      return segmentsStmt.all({ id: noteId }) as StoredSegment[];
    },

    // SQLite writes one transaction at a time: the line's version is all there is to check.
    claimSegment(noteId: string, segmentId: string, version: number): boolean {
      return (
        db
          .select({ version: transcriptSegments.version })
          .from(transcriptSegments)
          .where(and(eq(transcriptSegments.noteId, noteId), eq(transcriptSegments.id, segmentId)))
          .get()?.version === version
      );
    },

    // One transaction at a time already holds every part.
    holdPart(): void {},

    update(workspaceId: string, id: string, patch: NotePatch, folderIds?: string[]): boolean {
      return db.transaction((tx) => {
        const changed = tx
          .update(notes)
          .set(patch)
          .where(and(eq(notes.workspaceId, workspaceId), eq(notes.id, id)))
          .run().changes;
        if (!changed) return false;
        // The participant filter reads the addresses' index: it follows the list.
        if (patch.participants) {
          tx.delete(noteParticipantEmails).where(eq(noteParticipantEmails.noteId, id)).run();
          const emails = participantEmails(patch.participants);
          if (emails.length)
            tx.insert(noteParticipantEmails)
              .values(emails.map((emailNorm) => ({ noteId: id, emailNorm })))
              .run();
        }
        if (folderIds) {
          tx.delete(noteFolders).where(eq(noteFolders.noteId, id)).run();
          if (folderIds.length) {
            const { createdAt } = tx.select({ createdAt: notes.createdAt }).from(notes).where(eq(notes.id, id)).get()!;
            tx.insert(noteFolders)
              .values(folderIds.map((folderId) => ({ noteId: id, folderId, noteCreatedAt: createdAt })))
              .run();
          }
        }
        if (changesSearchText(patch)) reindex(id);
        return true;
      });
    },

    /** Every note's id, in the order they were made, a page at a time (for rebuilding indexes). */
    idsAfter(afterSeq: number, limit: number): { id: string; seq: number }[] {
      return db
        .select({ id: notes.id, seq: notes.seq })
        .from(notes)
        .where(gt(notes.seq, afterSeq))
        .orderBy(asc(notes.seq))
        .limit(limit)
        .all();
    },

    getForProcessing: forProcessing,

    setProcessingState(id: string, fields: Pick<Partial<NoteRow>, ProcessingFields>): void {
      db.transaction(() => {
        db.update(notes).set(withProgressReset(fields)).where(eq(notes.id, id)).run();
        if (changesSearchText(fields)) reindex(id);
      });
    },

    /** How far the current stage has come (not a change of the note: updatedAt stays). */
    setProgress(id: string, percent: number): void {
      db.update(notes).set({ processingProgress: percent }).where(eq(notes.id, id)).run();
    },

    /** Replaces the whole transcript in one transaction, so a repeated step never duplicates segments. */
    replaceTranscript(id: string, segments: SegmentRow[], fields: TranscriptFields): void {
      db.transaction((tx) => {
        tx.delete(transcriptSegments).where(eq(transcriptSegments.noteId, id)).run();
        insertSegments(tx, id, segments);
        tx.update(notes).set(withProgressReset(fields)).where(eq(notes.id, id)).run();
        const seq = reindex(id);
        if (seq !== undefined) indexSegments(id, seq);
      });
    },

    /** Deletes a note of the workspace (the service has asked the policy first). */
    delete(workspaceId: string, id: string): boolean {
      return (
        db
          .delete(notes)
          .where(and(eq(notes.workspaceId, workspaceId), eq(notes.id, id)))
          .run().changes > 0
      );
    },
  };
}

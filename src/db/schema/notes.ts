// Notes and their parts: participants, transcript segments, folder links.
import { NOTE_KINDS, NOTE_STATUSES, VISIBILITIES } from "../../core/note-vocabulary.js";
import { createdAtColumn, nocase, updatedAtColumn } from "./columns.js";
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { workspaceColumn } from "./accounts.js";
import { folders } from "./directory.js";

export interface ParticipantValue {
  name: string;
  email: string;
  profileImageUrl: string;
  accountName: string;
  accountDomain: string;
  accountImageUrl: string;
}

export const notes = sqliteTable(
  "notes",
  {
    /** Stable integer key: the rowid of the title search index (survives VACUUM, unlike an implicit rowid). */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    workspaceId: workspaceColumn(),
    createdBy: text("created_by").notNull(),
    title: text("title").notNull(),
    /**
     * Whether the title is the service's, from what was said (none was given): each
     * summary writes it again, until a person sets one.
     */
    titleFromContent: integer("title_from_content", { mode: "boolean" }).notNull().default(false),
    kind: text("kind", { enum: NOTE_KINDS }).notNull(),
    status: text("status", { enum: NOTE_STATUSES }).notNull(),
    visibility: text("visibility", { enum: VISIBILITIES }).notNull(),
    userWrittenNote: text("user_written_note").notNull().default(""),
    enhancedNote: text("enhanced_note").notNull().default(""),
    summary: text("summary").notNull().default(""),
    totalDurationSec: integer("total_duration_sec").notNull().default(0),
    /** Read whole with the note, so kept as JSON beside it; emails are indexed in note_participant_emails. */
    participants: text("participants", { mode: "json" }).$type<ParticipantValue[]>().notNull(),
    calendarEvent: text("calendar_event", { mode: "json" }).$type<Record<string, unknown> | null>(),
    /** The recurring meeting it was recorded for (the series' iCalendar UID, alike in every attendee's calendar), else null. */
    calendarSeries: text("calendar_series"),
    inputLanguage: text("input_language"),
    translationLanguage: text("translation_language"),
    meetingApp: text("meeting_app"),
    processingError: text("processing_error"),
    /** How far the current processing stage has come, 0–100, where the stage can tell (transcription by windows); else null. */
    processingProgress: integer("processing_progress"),
    /** The template the enhanced note was written with (a built-in id or one of the workspace's). */
    templateId: text("template_id"),
    /** What processing finished with but could not do fully (a part the model cut short), else null. */
    processingWarnings: text("processing_warnings", { mode: "json" }).$type<string[] | null>(),
    /** The upload this note was made from, if any (kept for reprocessing). */
    uploadId: text("upload_id"),
    /** The live recording this note was made from, if any (kept for reprocessing). */
    recordingId: text("recording_id"),
    /** Which engines made the transcript and summary, e.g. {"transcription":"openai:whisper-1"}. */
    processingInfo: text("processing_info", { mode: "json" }).$type<Record<string, string> | null>(),
    /** The SHA-256 of the file it was imported from, else null: an import run again makes nothing twice. */
    sourceHash: text("source_hash"),
    /**
     * When a person last edited the summary or the enhanced note (ms), else null: what
     * would write them anew (processing again, enhancing) asks first. Cleared when it does.
     */
    textEditedAt: integer("text_edited_at"),
    /** Since when a recording waits for a speech-to-text engine to exist (ms), else null: it is transcribed once one does. */
    awaitingEngineSince: integer("awaiting_engine_since"),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [
    // The three sort orders of the list. Visibility and creator trail the key so that
    // the only-me check of a filtered list reads the index alone, not every row.
    index("notes_ws_created_idx").on(t.workspaceId, t.createdAt, t.id, t.visibility, t.createdBy),
    index("notes_ws_updated_idx").on(t.workspaceId, t.updatedAt, t.id, t.visibility, t.createdBy),
    index("notes_ws_title_idx").on(t.workspaceId, nocase(t.title), t.id, t.visibility, t.createdBy),
    index("notes_ws_status_created_idx").on(t.workspaceId, t.status, t.createdAt),
    index("notes_ws_creator_created_idx").on(t.workspaceId, t.createdBy, t.createdAt),
    // The notes of one recurring meeting, for the note page's previous and next.
    index("notes_ws_series_idx")
      .on(t.workspaceId, t.calendarSeries, t.createdAt)
      .where(sql`${t.calendarSeries} IS NOT NULL`),
    // One note per imported file in a workspace.
    uniqueIndex("notes_ws_source_hash_idx")
      .on(t.workspaceId, t.sourceHash)
      .where(sql`${t.sourceHash} IS NOT NULL`),
    // Few rows ever wait; the engine check reads only those.
    index("notes_awaiting_engine_idx")
      .on(t.awaitingEngineSince)
      .where(sql`${t.awaitingEngineSince} IS NOT NULL`),
  ],
);

/** The participants' emails, lower-cased: the index behind the participantEmail filter. */
export const noteParticipantEmails = sqliteTable(
  "note_participant_emails",
  {
    noteId: text("note_id")
      .notNull()
      .references(() => notes.id, { onDelete: "cascade" }),
    emailNorm: text("email_norm").notNull(),
  },
  (t) => [primaryKey({ columns: [t.emailNorm, t.noteId] }), index("note_participant_emails_note_idx").on(t.noteId)],
);

export const transcriptSegments = sqliteTable(
  "transcript_segments",
  {
    noteId: text("note_id")
      .notNull()
      .references(() => notes.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    /**
     * The line's id, which stays through corrections (positions move when a line is
     * split or deleted); a new transcription gives new ones. Set by the store.
     */
    id: text("id").notNull().default(""),
    /** How many times a person corrected the line: a correction names the version it read. */
    version: integer("version").notNull().default(0),
    speaker: text("speaker").notNull(),
    text: text("text").notNull(),
    startSec: integer("start_sec").notNull(),
    endSec: integer("end_sec").notNull(),
  },
  (t) => [primaryKey({ columns: [t.noteId, t.position] }), index("transcript_segments_id_idx").on(t.noteId, t.id)],
);

export const noteFolders = sqliteTable(
  "note_folders",
  {
    noteId: text("note_id")
      .notNull()
      .references(() => notes.id, { onDelete: "cascade" }),
    folderId: text("folder_id")
      .notNull()
      .references(() => folders.id, { onDelete: "cascade" }),
    // The note's createdAt (which never changes), copied here so that a folder's
    // notes, newest first, are one walk of note_folders_timeline_idx.
    noteCreatedAt: integer("note_created_at").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.noteId, t.folderId] }),
    index("note_folders_folder_idx").on(t.folderId, t.noteId),
    index("note_folders_timeline_idx").on(t.folderId, t.noteCreatedAt, t.noteId),
  ],
);

/**
 * A public note's share link (/s/{token}): made when the note becomes public, gone
 * when it stops being public, so an old link never opens it again.
 */
export const noteShares = sqliteTable("note_shares", {
  noteId: text("note_id")
    .primaryKey()
    .references(() => notes.id, { onDelete: "cascade" }),
  /** 128 random bits, base64url; unguessable, so the link is the only credential. */
  token: text("token").notNull().unique(),
  includeTranscript: integer("include_transcript", { mode: "boolean" }).notNull().default(true),
  /** Whether the public page plays the recording: off until the note's owner says so. */
  includeRecording: integer("include_recording", { mode: "boolean" }).notNull().default(false),
  createdAt: createdAtColumn(),
});

/**
 * A note's action items as things of their own: ticked done, given to someone, due on a
 * day, listed across meetings. The note's task lines ("- [ ] … (owner: …) (due: …)")
 * and these rows are two views of the same items: written from the lines whenever the
 * note's text is written, and written back into the lines when one is changed here.
 */
/**
 * A note's history: each part a person wrote or the machine wrote anew (its title, its
 * notes, summary, enhanced note, a transcript line's correction), as it stood after
 * that write, with who wrote it. A person's saves of one part within minutes are one
 * version (the notepad saves as they type). Audio is never part of it.
 */
export const noteVersions = sqliteTable(
  "note_versions",
  {
    id: text("id").primaryKey(),
    workspaceId: workspaceColumn(),
    noteId: text("note_id")
      .notNull()
      .references(() => notes.id, { onDelete: "cascade" }),
    /** Its place in the note's history, counting from 1 (times may tie: one save writes two). */
    seq: integer("seq").notNull(),
    /** title, userWrittenNote, summary, enhancedNote, or transcriptLine. */
    part: text("part").notNull(),
    /** The part as written; for a line, JSON of its id, time, and words and speaker before and after. */
    content: text("content").notNull(),
    /** The person who wrote it, or null for the machine. */
    userId: text("user_id"),
    /** Who, in words: the person's name then, or what wrote it ("extractive", "local:…"). */
    writtenBy: text("written_by").notNull(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [index("note_versions_note_idx").on(t.noteId, t.seq)],
);

export const actionItems = sqliteTable(
  "action_items",
  {
    id: text("id").primaryKey(),
    workspaceId: workspaceColumn(),
    noteId: text("note_id")
      .notNull()
      .references(() => notes.id, { onDelete: "cascade" }),
    /** Its place among the note's items. */
    position: integer("position").notNull(),
    /** Its words, normalised: how the note written again finds the item it had, and what was ticked. */
    key: text("key").notNull(),
    text: text("text").notNull(),
    /** Who takes it on, as the note names them; null when nobody was named. */
    ownerName: text("owner_name"),
    /** The member it is given to, where the owner's name is a member's (or a participant's with a member's address). */
    ownerUserId: text("owner_user_id"),
    /** YYYY-MM-DD, or null. */
    due: text("due"),
    /** Seconds into the meeting of the first moment it cites, or null. */
    citedSec: integer("cited_sec"),
    doneAt: integer("done_at"),
    doneBy: text("done_by"),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [
    index("action_items_note_idx").on(t.noteId, t.position),
    index("action_items_owner_idx").on(t.workspaceId, t.ownerUserId, t.doneAt, t.due),
    index("action_items_ws_due_idx").on(t.workspaceId, t.doneAt, t.due),
  ],
);

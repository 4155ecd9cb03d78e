// The notes store: notes and their parts (participants, transcript segments, folder
// links), as both backends implement it (sqlite/notes.ts on SQLite, pg/notes.ts on
// PostgreSQL). Who may see which note is not decided here: reads take the access
// policy's `NoteView` and apply it through note-rules.ts; writes are scoped to the
// workspace and made only after the service has asked the policy.
import type { NoteView } from "../../core/access.js";
import type { NoteKind, NoteStatus } from "../../core/note-vocabulary.js";
import type { notes, noteSpeakers, transcriptSegments, ParticipantValue } from "../schema/index.js";

export type NoteRow = typeof notes.$inferSelect;
export type ParticipantRow = ParticipantValue;
/** A transcript line as stored, with its id and version. */
export type StoredSegment = Omit<typeof transcriptSegments.$inferSelect, "noteId" | "position">;
/** A transcript line to write: a new line gets its id (and version 0) from the store. */
export type SegmentRow = Omit<StoredSegment, "id" | "version"> & Partial<Pick<StoredSegment, "id" | "version">>;
export type NoteTagRow = { id: string; name: string; color: string };
export type SpeakerNameRow = typeof noteSpeakers.$inferSelect;

/** A note with what its single read shows besides the row. */
export interface NoteWithParts {
  row: NoteRow;
  /** The transcript, in order. */
  segments: StoredSegment[];
  /** Its folders, by name. */
  tags: NoteTagRow[];
  /** The names given to its speakers' labels, by label. */
  speakerNames: SpeakerNameRow[];
}

/** What processing writes on a note besides its transcript. */
export type ProcessingFields =
  | "status"
  | "processingProgress"
  | "processingError"
  | "processingInfo"
  | "processingWarnings"
  | "awaitingEngineSince"
  | "updatedAt"
  | "summary"
  | "enhancedNote"
  | "templateId"
  | "translationLanguage"
  | "title"
  | "titleFromContent"
  | "textEditedAt";

/** What is written on a note together with a new transcript. */
export type TranscriptFields = Pick<
  Partial<NoteRow>,
  "status" | "totalDurationSec" | "processingInfo" | "processingError" | "updatedAt" | "inputLanguage"
>;

/** The fields a change of a note may set (its identity and sequence never change). */
export type NotePatch = Partial<Omit<NoteRow, "seq" | "id">>;

export interface NoteListFilter {
  limit: number;
  offset: number;
  sortBy: "createdAt" | "updatedAt" | "title";
  sortOrder: "asc" | "desc";
  status?: NoteStatus;
  kind?: NoteKind;
  search?: string;
  createdBy?: string;
  fromDate?: number;
  toDate?: number;
  /** Notes changed after this time (exclusive): incremental sync. */
  updatedAfter?: number;
  folderIds?: string[];
  participantEmail?: string;
}

/** A list item (the Note shape without its long texts), or a brief (id, title, dates). */
export type ListProjection = "item" | "brief";

type LaterFields = "templateId" | "processingWarnings" | "processingProgress" | "awaitingEngineSince";
/** Fields a new note may leave out: null unless given. */
type OptionalFields = LaterFields | "calendarSeries" | "sourceHash" | "titleFromContent" | "textEditedAt";

export interface NewNote {
  /** Processing fills in the template, warnings, progress and any wait for an engine later. */
  row: Omit<NoteRow, "seq" | OptionalFields> & Partial<Pick<NoteRow, OptionalFields>>;
  segments: SegmentRow[];
  folderIds: string[];
}

export interface NoteStore {
  /** The note, its participants' emails, its transcript and its folder links, and its search rows, in one transaction. */
  insert(note: NewNote): Promise<void>;
  /** The note, when the view lets the viewer see it. */
  get(view: NoteView, id: string): Promise<NoteRow | null>;
  /** The workspace's note imported from the file of this SHA-256, whoever may see it. */
  bySourceHash(workspaceId: string, sourceHash: string): Promise<{ id: string; title: string } | null>;
  /**
   * The note with its transcript, folders and speaker names, when the view lets the
   * viewer see it: on PostgreSQL one statement, where reading them apart costs a round
   * trip each.
   */
  getWithParts(view: NoteView, id: string): Promise<NoteWithParts | null>;
  /**
   * One page plus one row (so the caller can tell whether another page follows) of the
   * notes the view lets the viewer see, each already rendered as its list item's JSON.
   */
  listJson(view: NoteView, filter: NoteListFilter, projection?: ListProjection): Promise<string[]>;
  /** The folders each note is filed in, by name. */
  foldersOf(noteIds: string[]): Promise<Map<string, NoteTagRow[]>>;
  /** A note's transcript, in order. */
  segmentsOf(noteId: string): Promise<StoredSegment[]>;
  /**
   * Inside a transaction: holds the note's transcript for it (a second correction of
   * the same note waits), and says whether the line is there at that version.
   */
  claimSegment(noteId: string, segmentId: string, version: number): Promise<boolean>;
  /**
   * Inside a transaction: holds one part of the note (`part`, such as "own-notes") for
   * it, so that a read-then-write of that part by another transaction waits for it.
   */
  holdPart(noteId: string, part: string): Promise<void>;
  /** Changes a note of the workspace (and, when given, replaces its folders); false when there is none. */
  update(workspaceId: string, id: string, patch: NotePatch, folderIds?: string[]): Promise<boolean>;
  /** Every note's id in the order they were made, a page at a time (for rebuilding indexes). */
  idsAfter(afterSeq: number, limit: number): Promise<{ id: string; seq: number }[]>;
  /** For the processing pipeline, which acts for no particular viewer. */
  getForProcessing(id: string): Promise<NoteRow | null>;
  /** `getWithParts` for the processing pipeline (indexing reads all of it, for no viewer). */
  getWithPartsForProcessing(id: string): Promise<NoteWithParts | null>;
  setProcessingState(id: string, fields: Pick<Partial<NoteRow>, ProcessingFields>): Promise<void>;
  /** How far the current stage has come (not a change of the note: updatedAt stays). */
  setProgress(id: string, percent: number): Promise<void>;
  /** Replaces the whole transcript in one transaction, so a repeated step never duplicates segments. */
  replaceTranscript(id: string, segments: SegmentRow[], fields: TranscriptFields): Promise<void>;
  /** Deletes a note of the workspace (the service has asked the policy first). */
  delete(workspaceId: string, id: string): Promise<boolean>;
}

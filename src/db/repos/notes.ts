// Notes and their parts (participants, transcript segments, folder links).
// Reads are prepared once (drizzle builds SQL per call otherwise, which costs more
// than the query itself); the list query is prepared per filter shape and served
// by the indexes in schema.ts.
import { and, asc, desc, eq, gt, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { SQLitePreparedQuery, SubqueryWithSelection } from "drizzle-orm/sqlite-core";
import type { Db } from "../open.js";
import { groupRows } from "./group-rows.js";
import { BRIEF_JSON_SQL, LIST_ITEM_JSON_SQL } from "./note-shape.js";
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
  noteViewSql,
  normalizeEmail,
  participantEmails,
  segmentFields,
  withProgressReset,
} from "../stores/note-rules.js";
import type {
  ListProjection,
  NewNote,
  NoteListFilter,
  NotePatch,
  NoteRow,
  NoteStore,
  NoteTagRow,
  NoteWithParts,
  ProcessingFields,
  SegmentRow,
  SpeakerNameRow,
  TranscriptFields,
} from "../stores/note-store.js";

const P = (name: string) => sql.placeholder(name);

/** A list item (or a brief) as JSON, rendered by SQLite from the one definition of the Note shape. */
const PROJECTIONS: Record<ListProjection, SQL<string>> = {
  item: sql<string>`${sql.raw(LIST_ITEM_JSON_SQL)}`,
  brief: sql<string>`${sql.raw(BRIEF_JSON_SQL)}`,
};

/**
 * The access policy's note filter (note-rules.ts) over placeholders: two prepared
 * forms of each statement, with the private-folder clause and without it.
 */
const visibleTo = (hidden: boolean): SQL =>
  noteViewSql(notes, {
    workspaceId: P("ws"),
    viewerUserId: P("viewer"),
    hiddenIn: hidden ? sql`(SELECT value FROM json_each(${P("hidden")}))` : null,
  });

/** The bound values of `visibleTo` for a view. */
function viewParams(v: NoteView): Record<string, unknown> {
  const params: Record<string, unknown> = { ws: v.workspaceId, viewer: v.viewerUserId };
  if (v.hiddenFolderIds.length) params.hidden = JSON.stringify(v.hiddenFolderIds);
  return params;
}

/** The FTS5 query for a search box: every word of it must start a word of the title. */
export function titleMatchQuery(search: string): string | null {
  const words = search.match(/[\p{L}\p{N}]+/gu);
  return words ? words.map((w) => `"${w}"*`).join(" ") : null;
}

/** Ids as one JSON parameter, expanded by json_each: one prepared statement for any count. */
const jsonIds = (ids: string[]) => JSON.stringify(ids);

export interface NoteRepoOptions {
  /** Folder filters matching fewer notes than this drive the query from the folder's notes. */
  folderDriveLimit?: number;
  /** Whether a one-folder list by createdAt walks the folder's timeline index (default true). */
  folderTimeline?: boolean;
}

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
    source: db.$client.prepare("SELECT seq, title, user_written_note, summary, enhanced_note FROM notes WHERE id = ?"),
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
      { seq: number; title: string; user_written_note: string; summary: string; enhanced_note: string } | undefined;
    if (!n) return;
    const body = [n.user_written_note, n.summary, n.enhanced_note, ...(reindexStmt.transcript.all(id) as string[])]
      .filter(Boolean)
      .join("\n");
    reindexStmt.remove.run(n.seq);
    reindexStmt.add.run(n.seq, n.title, body);
    return n.seq;
  }

  const listStatements = new Map<string, SQLitePreparedQuery<any>>(); // eslint-disable-line @typescript-eslint/no-explicit-any
  // How a folder filter is best answered: one folder by date walks the folder's own
  // timeline; otherwise it depends on the folders' size: a small folder drives the
  // query from its note ids; a large one is better probed row by row while walking
  // the sort index, which stops once the page is full.
  const FOLDER_DRIVE_LIMIT = options.folderDriveLimit ?? 1000;
  const folderSizeStatements = new Map<number, SQLitePreparedQuery<any>>(); // eslint-disable-line @typescript-eslint/no-explicit-any
  type FolderMode = "timeline" | "drive" | "probe";
  function folderFilterMode(f: NoteListFilter & { folderIds: string[] }): FolderMode {
    // One folder, newest or oldest first: walk that folder's timeline index.
    if (f.folderIds.length === 1 && f.sortBy === "createdAt" && options.folderTimeline !== false) return "timeline";
    const folderIds = f.folderIds;
    let stmt = folderSizeStatements.get(folderIds.length);
    if (!stmt) {
      const inner = db
        .select({ one: sql`1` })
        .from(noteFolders)
        .where(
          inArray(
            noteFolders.folderId,
            folderIds.map((_, i) => P(`f${i}`)),
          ),
        )
        .limit(FOLDER_DRIVE_LIMIT)
        .as("capped");
      stmt = db
        .select({ n: sql<number>`count(*)` })
        .from(inner)
        .prepare();
      folderSizeStatements.set(folderIds.length, stmt);
    }
    const { n } = stmt.get(Object.fromEntries(folderIds.map((id, i) => [`f${i}`, id]))) as { n: number };
    return n < FOLDER_DRIVE_LIMIT ? "drive" : "probe";
  }

  function listStatement(
    f: NoteListFilter,
    hasMatch: boolean,
    folderMode: FolderMode | null,
    projection: ListProjection,
    hidden: boolean,
  ) {
    const listItemJson = PROJECTIONS[projection];
    const visible = visibleTo(hidden);
    const shape = [
      projection,
      hidden,
      f.sortBy,
      f.sortOrder,
      f.status !== undefined,
      f.kind !== undefined,
      f.createdBy !== undefined,
      f.fromDate !== undefined,
      f.toDate !== undefined,
      f.updatedAfter !== undefined,
      f.search !== undefined && hasMatch,
      f.search !== undefined && !hasMatch,
      folderMode,
      f.folderIds?.length ?? 0,
      f.participantEmail !== undefined,
    ].join("|");
    let stmt = listStatements.get(shape);
    if (stmt) return stmt;
    const where: SQL[] = [visible];
    if (f.status !== undefined) where.push(eq(notes.status, P("status")));
    if (f.kind !== undefined) where.push(eq(notes.kind, P("kind")));
    if (f.createdBy !== undefined) where.push(eq(notes.createdBy, P("createdBy")));
    // On the folder timeline the date range applies to note_folders' copy instead.
    const createdAt = folderMode === "timeline" ? noteFolders.noteCreatedAt : notes.createdAt;
    if (f.fromDate !== undefined) where.push(gte(createdAt, P("fromDate")));
    if (f.toDate !== undefined) where.push(lt(createdAt, P("toDate")));
    if (f.updatedAfter !== undefined) where.push(gt(notes.updatedAt, P("updatedAfter")));
    if (f.search !== undefined)
      where.push(
        hasMatch
          ? sql`${notes.seq} IN (SELECT rowid FROM notes_title_fts WHERE notes_title_fts MATCH ${P("match")})`
          : sql`0`,
      );
    if (f.folderIds?.length && folderMode !== "timeline") {
      const inFolders = inArray(
        noteFolders.folderId,
        f.folderIds.map((_, i) => P(`f${i}`)),
      );
      where.push(
        folderMode === "drive"
          ? inArray(notes.id, db.select({ id: noteFolders.noteId }).from(noteFolders).where(inFolders))
          : sql`EXISTS (SELECT 1 FROM ${noteFolders} WHERE ${noteFolders.noteId} = ${notes.id} AND ${inFolders})`,
      );
    }
    if (f.participantEmail !== undefined)
      where.push(
        sql`${notes.id} IN (SELECT ${noteParticipantEmails.noteId} FROM ${noteParticipantEmails} WHERE ${noteParticipantEmails.emailNorm} = ${P("email")})`,
      );
    const dir = f.sortOrder === "asc" ? asc : desc;
    const key =
      f.sortBy === "title"
        ? sql`${notes.title} COLLATE NOCASE`
        : f.sortBy === "updatedAt"
          ? notes.updatedAt
          : notes.createdAt;
    const order = [dir(key), dir(notes.id)];
    const filtered = where.length > 1;
    /** The chosen page's notes (their seqs), rendered in order. */
    const renderPage = (page: SubqueryWithSelection<{ seq: typeof notes.seq }, "page">) =>
      db
        .select({ json: listItemJson })
        .from(page)
        // CROSS JOIN keeps the page as the outer loop: SQLite never reorders it.
        .crossJoin(notes)
        .where(eq(notes.seq, page.seq))
        .orderBy(...order)
        .prepare();
    if (folderMode === "timeline") {
      // note_folders drives, in (folder, createdAt, note id) order: the same order as
      // the notes' own (createdAt, id), so the page needs no sort.
      const byFolder = [eq(noteFolders.folderId, P("f0")), eq(notes.id, noteFolders.noteId), ...where];
      const page = db
        .select({ seq: notes.seq })
        .from(noteFolders)
        .crossJoin(notes)
        .where(and(...byFolder))
        .orderBy(dir(noteFolders.noteCreatedAt), dir(noteFolders.noteId))
        .limit(P("limit"))
        .offset(P("offset"))
        .as("page");
      stmt = renderPage(page);
    } else if (!filtered) {
      // The page comes straight off the (workspace, sort key, id) index.
      stmt = db
        .select({ json: listItemJson })
        .from(notes)
        .where(visible)
        .orderBy(...order)
        .limit(P("limit"))
        .offset(P("offset"))
        .prepare();
    } else {
      // A filter may leave many rows to sort; SQLite computes a row's output before
      // sorting it, so the page's notes are chosen first and rendered after.
      const page = db
        .select({ seq: notes.seq })
        .from(notes)
        .where(and(...where))
        .orderBy(...order)
        .limit(P("limit"))
        .offset(P("offset"))
        .as("page");
      stmt = renderPage(page);
    }
    listStatements.set(shape, stmt);
    return stmt;
  }

  /**
   * One page plus one row (so the caller can tell whether another page follows),
   * each note already rendered as its list item's JSON text.
   */
  function listJson(view: NoteView, f: NoteListFilter, projection: ListProjection = "item"): string[] {
    const match = f.search !== undefined ? titleMatchQuery(f.search) : null;
    const params: Record<string, unknown> = { ...viewParams(view), limit: f.limit + 1, offset: f.offset };
    if (f.status !== undefined) params.status = f.status;
    if (f.kind !== undefined) params.kind = f.kind;
    if (f.createdBy !== undefined) params.createdBy = f.createdBy;
    if (f.fromDate !== undefined) params.fromDate = f.fromDate;
    if (f.toDate !== undefined) params.toDate = f.toDate;
    if (f.updatedAfter !== undefined) params.updatedAfter = f.updatedAfter;
    if (match) params.match = match;
    f.folderIds?.forEach((id, i) => (params[`f${i}`] = id));
    if (f.participantEmail !== undefined) params.email = normalizeEmail(f.participantEmail);
    const folderMode = f.folderIds?.length ? folderFilterMode({ ...f, folderIds: f.folderIds }) : null;
    const hidden = view.hiddenFolderIds.length > 0;
    return (listStatement(f, match !== null, folderMode, projection, hidden).all(params) as { json: string }[]).map(
      (r) => r.json,
    );
  }

  type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
  /** A note whatever its visibility: for the processing pipeline, which reads for no viewer. */
  const forProcessing = (id: string): NoteRow | null => db.select().from(notes).where(eq(notes.id, id)).get() ?? null;

  /** A note's row with its transcript, folders and speaker names. */
  function withParts(row: NoteRow): NoteWithParts {
    const { id } = row;
    return {
      row,
      segments: segmentsStmt.all({ id }) as SegmentRow[],
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
        .values(chunk.rows.map((s, j) => ({ ...s, noteId, position: chunk.start + j })))
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

    segmentsOf(noteId: string): SegmentRow[] {
      return segmentsStmt.all({ id: noteId }) as SegmentRow[];
    },

    update(workspaceId: string, id: string, patch: NotePatch, folderIds?: string[]): boolean {
      return db.transaction((tx) => {
        const changed = tx
          .update(notes)
          .set(patch)
          .where(and(eq(notes.workspaceId, workspaceId), eq(notes.id, id)))
          .run().changes;
        if (!changed) return false;
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

    /** For the processing pipeline, which acts for no particular viewer. */
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

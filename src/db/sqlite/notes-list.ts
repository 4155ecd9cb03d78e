// The notes list on SQLite: one prepared statement per shape of filters (which
// filters are set, the sort, the folder strategy), each rendering its page's items as
// JSON in SQLite from the one definition of the Note shape (note-shape.ts).
import { wordsOf } from "../../core/search-query.js";
import { and, asc, desc, eq, fillPlaceholders, gt, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { SQLiteSyncDialect, type SQLitePreparedQuery, type SubqueryWithSelection } from "drizzle-orm/sqlite-core";
import type { Db } from "../open.js";
import { BRIEF_JSON_SQL, LIST_ITEM_JSON_SQL } from "../repos/note-shape.js";
import { noteFolders, noteParticipantEmails, notes } from "../schema/index.js";
import type { NoteView } from "../../core/access.js";
import { normalizeEmail } from "../stores/note-rules.js";
import type { ListProjection, NoteListFilter } from "../stores/note-store.js";
import { P, viewParams, visibleTo } from "./note-view-sql.js";

/** A list item (or a brief) as JSON, rendered by SQLite from the one definition of the Note shape. */
const PROJECTIONS: Record<ListProjection, SQL<string>> = {
  item: sql<string>`${sql.raw(LIST_ITEM_JSON_SQL)}`,
  brief: sql<string>`${sql.raw(BRIEF_JSON_SQL)}`,
};

export interface NoteRepoOptions {
  /** Folder filters matching fewer notes than this drive the query from the folder's notes. */
  folderDriveLimit?: number;
  /** Whether a one-folder list by createdAt walks the folder's timeline index (default true). */
  folderTimeline?: boolean;
}

/** The FTS5 query for a search box: every word of it must start a word of the title. */
export function titleMatchQuery(search: string): string | null {
  const words = wordsOf(search);
  return words.length ? words.map((w) => `"${w}"*`).join(" ") : null;
}

/** A page's statement: its rows' JSON texts, for the named values of its placeholders. */
interface PageStatement {
  all(values: Record<string, unknown>): string[];
}

/** The list's statements for one database; `listJson` answers a page. */
export function sqliteNoteList(db: Db, options: NoteRepoOptions = {}) {
  const listStatements = new Map<string, PageStatement>();
  const dialect = new SQLiteSyncDialect();
  /**
   * Built by drizzle, run by better-sqlite3 directly: each row is one JSON text, which
   * drizzle's row mapping would only wrap and unwrap on every request.
   */
  const compiled = (query: { getSQL(): SQL }): PageStatement => {
    const { sql: text, params } = dialect.sqlToQuery(query.getSQL());
    const stmt = db.$client.prepare(text).pluck();
    return { all: (values) => stmt.all(...fillPlaceholders(params, values)) as string[] };
  };
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
    // Built once per shape: drizzle's SQL objects cost more than a cached statement's lookup.
    const listItemJson = PROJECTIONS[projection];
    const visible = visibleTo(hidden);
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
      compiled(
        db
          .select({ json: listItemJson })
          .from(page)
          // CROSS JOIN keeps the page as the outer loop: SQLite never reorders it.
          .crossJoin(notes)
          .where(eq(notes.seq, page.seq))
          .orderBy(...order),
      );
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
      stmt = compiled(
        db
          .select({ json: listItemJson })
          .from(notes)
          .where(visible)
          .orderBy(...order)
          .limit(P("limit"))
          .offset(P("offset")),
      );
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
    return listStatement(f, match !== null, folderMode, projection, hidden).all(params);
  }

  return listJson;
}

// The rules both backends' note and search stores apply, written once: who a note is
// visible to (the access policy's `noteView`, src/core/access.ts, as SQL), which
// changes rewrite the search index, how participants' emails are matched, and how
// many rows one insert may carry. The SQL here is dialect-neutral: the tables and
// columns have the same names on SQLite and PostgreSQL, and where the dialects
// write a set of ids differently the caller passes it in.
import { newId } from "../../core/ids.js";
import { wordsOf } from "../../core/search-query.js";
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { NoteView } from "../../core/access.js";
import { MEMBER_SEES, type Condition, type NoteField, type ViewerField } from "../../core/note-visibility.js";
import type { NoteScope } from "./search-store.js";
import type { NotePatch, NoteRow, ProcessingFields } from "./note-store.js";

/** The note columns a rule reads, however the statement names them (a table's columns, or an alias's). */
export interface NoteColumns {
  id: SQLWrapper;
  workspaceId: SQLWrapper;
  visibility: SQLWrapper;
  createdBy: SQLWrapper;
}

/** The notes table aliased `n`, as hand-written search statements name it. */
export const N: NoteColumns & { createdAt: SQLWrapper } = {
  id: sql.raw("n.id"),
  workspaceId: sql.raw("n.workspace_id"),
  visibility: sql.raw("n.visibility"),
  createdBy: sql.raw("n.created_by"),
  createdAt: sql.raw("n.created_at"),
};

/** A set of ids as the dialect writes the right-hand side of IN. */
export type IdSet = (ids: string[]) => SQL;

/**
 * The access policy's note filter as SQL: the rule of core/note-visibility.ts
 * (MEMBER_SEES), compiled condition by condition, so that the stores apply exactly
 * what the policy checks in process. `hiddenIn` is the set of private folders the
 * viewer is outside of, or null where there are none: then the statement carries no
 * folder clause at all and such viewers pay nothing for it. The values may be bound
 * parameters or placeholders of a prepared statement.
 */
export function noteViewSql(
  n: NoteColumns,
  v: { workspaceId: unknown; viewerUserId: unknown; hiddenIn: SQL | null },
): SQL {
  const noteColumn: Record<NoteField, SQLWrapper> = {
    workspaceId: n.workspaceId,
    createdBy: n.createdBy,
    visibility: n.visibility,
  };
  const viewerValue: Record<ViewerField, unknown> = { workspaceId: v.workspaceId, userId: v.viewerUserId };
  const compile = (c: Condition): SQL | null => {
    switch (c.kind) {
      case "same":
        return sql`${noteColumn[c.note]} = ${viewerValue[c.viewer]}`;
      case "is":
        // A literal of the rule, not a value from outside: written into the statement, as the plans expect.
        return sql`${noteColumn[c.note]} ${sql.raw(c.not ? "<>" : "=")} ${sql.raw(`'${c.value.replace(/'/g, "''")}'`)}`;
      case "any": {
        const parts = c.of.map(compile).filter((x): x is SQL => x !== null);
        return sql`(${sql.join(parts, sql` OR `)})`;
      }
      case "not-in-hidden-folder":
        return v.hiddenIn
          ? sql`NOT EXISTS (SELECT 1 FROM note_folders hf WHERE hf.note_id = ${n.id} AND hf.folder_id IN ${v.hiddenIn})`
          : null;
    }
  };
  const parts = MEMBER_SEES.map(compile).filter((x): x is SQL => x !== null);
  return sql.join(parts, sql` AND `);
}

/** `noteViewSql` for a view, with its values bound. */
export const boundNoteView = (n: NoteColumns, view: NoteView, set: IdSet): SQL =>
  noteViewSql(n, {
    workspaceId: view.workspaceId,
    viewerUserId: view.viewerUserId,
    hiddenIn: view.hiddenFolderIds.length ? set(view.hiddenFolderIds) : null,
  });

/**
 * Which notes a search may return, over notes aliased `n`: the policy's view, then the
 * search's filters (dates, folders, a participant, a speaker by label or by name).
 */
export function noteScopeSql(s: NoteScope, set: IdSet): SQL {
  const filters: SQL[] = [boundNoteView(N, s, set)];
  if (s.fromDate !== undefined) filters.push(sql`n.created_at >= ${s.fromDate}`);
  if (s.toDate !== undefined) filters.push(sql`n.created_at < ${s.toDate}`);
  if (s.folderIds?.length)
    filters.push(sql`n.id IN (SELECT nf.note_id FROM note_folders nf WHERE nf.folder_id IN ${set(s.folderIds)})`);
  if (s.participantEmail)
    filters.push(
      sql`n.id IN (SELECT pe.note_id FROM note_participant_emails pe WHERE pe.email_norm = ${normalizeEmail(s.participantEmail)})`,
    );
  if (s.speaker)
    filters.push(sql`EXISTS (SELECT 1 FROM transcript_segments t WHERE t.note_id = n.id AND (lower(t.speaker) = ${s.speaker}
           OR t.speaker IN (SELECT ns.label FROM note_speakers ns WHERE ns.note_id = n.id AND lower(ns.name) = ${s.speaker})))`);
  return sql.join(filters, sql` AND `);
}

/** A transcript segment as the stores return it (`SegmentRow`): its columns, picked from either dialect's table. */
type SegmentColumn = "id" | "version" | "speaker" | "text" | "startSec" | "endSec";
export const segmentFields = <T extends Record<SegmentColumn, unknown>>(t: T): Pick<T, SegmentColumn> => ({
  id: t.id,
  version: t.version,
  speaker: t.speaker,
  text: t.text,
  startSec: t.startSec,
  endSec: t.endSec,
});

/** A line as the store writes it: a new line gets its id here, and starts at version 0. */
export const storedSegment = <S extends { id?: string; version?: number }>(s: S) => ({
  ...s,
  id: s.id || newId("seg"),
  version: s.version ?? 0,
});

/** The fields of a note its search rows are made of (besides its transcript): who was there too. */
const SEARCHED_FIELDS = ["title", "userWrittenNote", "summary", "enhancedNote", "participants"] as const;

/** Who was there, as the search rows hold it: "Ana Lima ana@partner.example, Ben". */
export const participantsText = (participants: { name: string; email: string }[]): string =>
  participants
    .map((p) => `${p.name} ${p.email}`.trim())
    .filter(Boolean)
    .join(", ");

/** Whether a change of these fields must rewrite the note's search rows. */
export const changesSearchText = (fields: NotePatch | Pick<Partial<NoteRow>, ProcessingFields>): boolean =>
  SEARCHED_FIELDS.some((f) => (fields as Partial<NoteRow>)[f] !== undefined);

/** An email as participants are matched: trimmed, lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** A note's participants' emails, normalised, each once, none empty. */
export const participantEmails = (participants: { email: string }[]): string[] => [
  ...new Set(participants.map((p) => normalizeEmail(p.email)).filter(Boolean)),
];

/** The words of a search box, lower-cased, each once; nothing of any query syntax survives. */
export function searchWords(text: string): string[] {
  return [...new Set(wordsOf(text))];
}

/** A new status starts its stage's progress afresh. */
export function withProgressReset<F extends { status?: string; processingProgress?: number | null }>(fields: F): F {
  return fields.status !== undefined && fields.processingProgress === undefined
    ? { ...fields, processingProgress: null }
    : fields;
}

/**
 * Rows per insert statement: SQLite binds at most 32,766 parameters per statement and
 * PostgreSQL 65,535; a transcript segment row has eight columns.
 */
export const ROWS_PER_INSERT = 500;

/** Rows in slices of at most `size`, each with the index of its first row. */
export function* inChunks<T>(rows: T[], size = ROWS_PER_INSERT): Generator<{ start: number; rows: T[] }> {
  for (let start = 0; start < rows.length; start += size) yield { start, rows: rows.slice(start, start + size) };
}

// Action items (schema/notes.ts): each note's, written whole when its text is written,
// and the workspace's, listed through the access policy's note filter, so that an item
// is seen exactly where its note is.
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, notInArray, sql, type SQL } from "drizzle-orm";
import type { NoteView } from "../../core/access.js";
import type { Db } from "../open.js";
import type { actionItems } from "../schema/index.js";
import { boundNoteView, type NoteColumns } from "../stores/note-rules.js";
import { first, sqliteTables, type Tables, type Transaction } from "./portable.js";

export type ActionItemRow = typeof actionItems.$inferSelect;

export interface ActionItemFilter {
  ownerUserId?: string;
  status?: "open" | "done";
  noteId?: string;
  /** Items due before this day (YYYY-MM-DD); items with no due date are left out. */
  dueBefore?: string;
  limit: number;
  offset: number;
}

export interface ListedActionItem {
  item: ActionItemRow;
  noteTitle: string;
  noteCreatedAt: number;
}

/** The notes table's columns, named with the table: the list joins it with the items. */
const NOTE: NoteColumns = {
  id: sql.raw(`"notes"."id"`),
  workspaceId: sql.raw(`"notes"."workspace_id"`),
  visibility: sql.raw(`"notes"."visibility"`),
  createdBy: sql.raw(`"notes"."created_by"`),
};
/** A set of ids as both dialects write the right-hand side of IN. */
const idList = (ids: string[]): SQL =>
  sql`(${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )})`;

export function actionItemRepo(db: Db, t: Tables = sqliteTables, transaction: Transaction) {
  const { actionItems: a, notes: n } = t;
  return {
    async forNote(noteId: string): Promise<ActionItemRow[]> {
      return await db.select().from(a).where(eq(a.noteId, noteId)).orderBy(asc(a.position));
    },

    async forNotes(noteIds: string[]): Promise<ActionItemRow[]> {
      if (!noteIds.length) return [];
      return await db.select().from(a).where(inArray(a.noteId, noteIds)).orderBy(asc(a.noteId), asc(a.position));
    },

    async get(workspaceId: string, id: string): Promise<ActionItemRow | null> {
      return first(
        await db
          .select()
          .from(a)
          .where(and(eq(a.workspaceId, workspaceId), eq(a.id, id)))
          .limit(1),
      );
    },

    /** The note's items from now on: those kept by id are updated, the rest replaced. */
    async replaceForNote(noteId: string, rows: ActionItemRow[]): Promise<void> {
      await transaction(async () => {
        const keep = rows.map((r) => r.id);
        await db
          .delete(a)
          .where(keep.length ? and(eq(a.noteId, noteId), notInArray(a.id, keep)) : eq(a.noteId, noteId));
        for (const row of rows)
          await db
            .insert(a)
            .values(row)
            .onConflictDoUpdate({
              target: a.id,
              set: {
                position: row.position,
                key: row.key,
                text: row.text,
                ownerName: row.ownerName,
                ownerUserId: row.ownerUserId,
                due: row.due,
                citedSec: row.citedSec,
                doneAt: row.doneAt,
                doneBy: row.doneBy,
                updatedAt: row.updatedAt,
              },
            });
      });
    },

    /** A speaker renamed: the note's items given to them carry the new name (the member is found again by it). */
    async renameOwner(noteId: string, from: string, to: string): Promise<void> {
      await db
        .update(a)
        .set({ ownerName: to || null, ownerUserId: null })
        .where(and(eq(a.noteId, noteId), sql`lower(${a.ownerName}) = ${from.trim().toLowerCase()}`));
    },

    async update(
      id: string,
      fields: Partial<Pick<ActionItemRow, "ownerName" | "ownerUserId" | "due" | "doneAt" | "doneBy" | "updatedAt">>,
    ): Promise<void> {
      await db.update(a).set(fields).where(eq(a.id, id));
    },

    /** One page plus one row of the items of the notes the view lets the viewer see: due first, soonest first. */
    async list(view: NoteView, f: ActionItemFilter): Promise<ListedActionItem[]> {
      const where: SQL[] = [eq(a.workspaceId, view.workspaceId), boundNoteView(NOTE, view, idList)];
      if (f.ownerUserId) where.push(eq(a.ownerUserId, f.ownerUserId));
      if (f.status === "open") where.push(isNull(a.doneAt));
      if (f.status === "done") where.push(isNotNull(a.doneAt));
      if (f.noteId) where.push(eq(a.noteId, f.noteId));
      if (f.dueBefore) where.push(isNotNull(a.due), lt(a.due, f.dueBefore));
      return await db
        .select({ item: a, noteTitle: n.title, noteCreatedAt: n.createdAt })
        .from(a)
        .innerJoin(n, eq(n.id, a.noteId))
        .where(and(...where))
        .orderBy(sql`CASE WHEN ${a.due} IS NULL THEN 1 ELSE 0 END`, asc(a.due), desc(n.createdAt), asc(a.position))
        .limit(f.limit + 1)
        .offset(f.offset);
    },
  };
}

// The notes of one recurring meeting, in the order they were made: the note page's
// previous and next. Read with the facts the access policy decides on; the service
// keeps those the viewer may see.
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../open.js";
import { sqliteTables, type Tables } from "./portable.js";

export interface SeriesNote {
  id: string;
  title: string;
  createdAt: number;
  createdBy: string;
  workspaceId: string;
  visibility: "only-me" | "workspace" | "public";
}

export function noteSeriesRepo(db: Db, t: Tables = sqliteTables) {
  const { notes } = t;
  return {
    /** Up to `limit` notes of the series, oldest first. */
    async of(workspaceId: string, series: string, limit: number): Promise<SeriesNote[]> {
      return db
        .select({
          id: notes.id,
          title: notes.title,
          createdAt: notes.createdAt,
          createdBy: notes.createdBy,
          workspaceId: notes.workspaceId,
          visibility: notes.visibility,
        })
        .from(notes)
        .where(and(eq(notes.workspaceId, workspaceId), eq(notes.calendarSeries, series)))
        .orderBy(asc(notes.createdAt), asc(notes.id))
        .limit(limit);
    },
  };
}

// The access policy's note filter (note-rules.ts) as SQLite's prepared statements take
// it: over named placeholders, bound per call from the caller's view.
import { sql, type SQL } from "drizzle-orm";
import { notes } from "../schema/index.js";
import type { NoteView } from "../../core/access.js";
import { noteViewSql } from "../stores/note-rules.js";

export const P = (name: string) => sql.placeholder(name);

/**
 * The access policy's note filter (note-rules.ts) over placeholders: two prepared
 * forms of each statement, with the private-folder clause and without it.
 */
export const visibleTo = (hidden: boolean): SQL =>
  noteViewSql(notes, {
    workspaceId: P("ws"),
    viewerUserId: P("viewer"),
    hiddenIn: hidden ? sql`(SELECT value FROM json_each(${P("hidden")}))` : null,
  });

/** The bound values of `visibleTo` for a view. */
export function viewParams(v: NoteView): Record<string, unknown> {
  const params: Record<string, unknown> = { ws: v.workspaceId, viewer: v.viewerUserId };
  if (v.hiddenFolderIds.length) params.hidden = JSON.stringify(v.hiddenFolderIds);
  return params;
}

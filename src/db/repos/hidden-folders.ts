// The private folders of a workspace a user is not a member of: the access policy's
// `hiddenFolderIds`, as a subquery that the statements resolving a caller (an API key,
// a web session's membership) carry, so that who they are and what they may not see
// come back in one round trip.
import { and, eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Db } from "../open.js";
import type { Dialect, Tables } from "./portable.js";

/** The hidden folders' ids as one comma-joined text (ids never hold a comma), or null for none. */
export function hiddenFolderIdsSql(
  db: Db,
  t: Tables,
  dialect: Dialect,
  workspaceId: SQLWrapper,
  userId: SQLWrapper,
): SQL<string | null> {
  const { folderMembers, folders } = t;
  const hidden = db
    .select({ id: folders.id })
    .from(folders)
    .where(
      and(
        eq(folders.workspaceId, workspaceId as SQL),
        eq(folders.isPrivate, true),
        sql`NOT EXISTS (SELECT 1 FROM ${folderMembers} WHERE ${folderMembers.folderId} = ${folders.id} AND ${folderMembers.userId} = ${userId})`,
      ),
    );
  return dialect.name === "postgres"
    ? sql<string | null>`(SELECT string_agg(h.id, ',') FROM (${hidden}) h)`
    : sql<string | null>`(SELECT group_concat(h.id, ',') FROM (${hidden}) h)`;
}

/** The ids read back from `hiddenFolderIdsSql`, sorted so that equal sets give equal statements. */
export const parseIdList = (list: string | null): string[] => (list ? list.split(",").sort() : []);

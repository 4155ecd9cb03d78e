import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../open.js";
import { createReadCache } from "../read-cache.js";
import { folderMembers, folders } from "../schema/index.js";

export type FolderRow = typeof folders.$inferSelect;

/** Folders of workspace :ws that user :user may see: every shared one, and private ones they belong to. */
const visibleToUser = and(
  eq(folders.workspaceId, sql.placeholder("ws")),
  or(
    eq(folders.isPrivate, false),
    sql`EXISTS (SELECT 1 FROM ${folderMembers} WHERE ${folderMembers.folderId} = ${folders.id} AND ${folderMembers.userId} = ${sql.placeholder("user")})`,
  ),
);

export function folderRepo(db: Db) {
  // Every page with a folder picker lists them: prepared once.
  const visibleStmt = db
    .select({
      id: folders.id,
      workspaceId: folders.workspaceId,
      name: folders.name,
      icon: folders.icon,
      color: folders.color,
      isPrivate: folders.isPrivate,
      parentFolderId: folders.parentFolderId,
      ownerUserId: folders.ownerUserId,
      createdAt: folders.createdAt,
      updatedAt: folders.updatedAt,
      memberCount: sql<number>`(SELECT count(*) FROM ${folderMembers} WHERE ${folderMembers.folderId} = ${folders.id})`,
    })
    .from(folders)
    .where(visibleToUser)
    .orderBy(asc(folders.createdAt), asc(folders.id))
    .prepare();
  // The folder pickers of the web pages: names only, without the member counts.
  const namesStmt = db
    .select({ id: folders.id, name: folders.name })
    .from(folders)
    .where(visibleToUser)
    .orderBy(asc(folders.name), asc(folders.id))
    .prepare();
  // Every note page offers them; between writes, from memory.
  const namesCache = createReadCache<{ id: string; name: string }[]>(db.$client);
  return {
    /** Id and name of the folders the user may see, by name. */
    namesVisible(workspaceId: string, userId: string): { id: string; name: string }[] {
      return namesCache.get(`${workspaceId} ${userId}`, () => namesStmt.all({ ws: workspaceId, user: userId }))!;
    },
    insert(row: FolderRow): void {
      db.transaction((tx) => {
        tx.insert(folders).values(row).run();
        // The owner is the folder's first member.
        tx.insert(folderMembers).values({ folderId: row.id, userId: row.ownerUserId }).onConflictDoNothing().run();
      });
    },
    get(workspaceId: string, id: string): FolderRow | null {
      return db.select().from(folders).where(and(eq(folders.workspaceId, workspaceId), eq(folders.id, id))).get() ?? null;
    },
    /** Folders the user may see: every shared folder, and private ones the user belongs to. */
    listVisible(workspaceId: string, userId: string): (FolderRow & { memberCount: number })[] {
      return visibleStmt.all({ ws: workspaceId, user: userId }) as (FolderRow & { memberCount: number })[];
    },
    addMember(folderId: string, userId: string): void {
      db.insert(folderMembers).values({ folderId, userId }).onConflictDoNothing().run();
    },
    /** The subset of `ids` that are folders of this workspace. */
    existing(workspaceId: string, ids: string[]): FolderRow[] {
      if (ids.length === 0) return [];
      return db.select().from(folders).where(and(eq(folders.workspaceId, workspaceId), inArray(folders.id, ids))).all();
    },
    update(workspaceId: string, id: string, patch: Partial<FolderRow>): boolean {
      return (
        db
          .update(folders)
          .set(patch)
          .where(and(eq(folders.workspaceId, workspaceId), eq(folders.id, id)))
          .run().changes > 0
      );
    },
    /** Deletes a folder; its notes stay (unfiled from it) and its children move up one level. */
    delete(workspaceId: string, id: string, now: number): boolean {
      return db.transaction((tx) => {
        const folder = tx.select().from(folders).where(and(eq(folders.workspaceId, workspaceId), eq(folders.id, id))).get();
        if (!folder) return false;
        tx.update(folders)
          .set({ parentFolderId: folder.parentFolderId, updatedAt: now })
          .where(and(eq(folders.workspaceId, workspaceId), eq(folders.parentFolderId, id)))
          .run();
        tx.delete(folders).where(eq(folders.id, id)).run();
        return true;
      });
    },
  };
}

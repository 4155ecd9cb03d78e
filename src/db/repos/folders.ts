import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../open.js";
import type { folders } from "../schema/index.js";
import { first, type Dialect, type Tables, type Transaction } from "./portable.js";

export type FolderRow = typeof folders.$inferSelect;
/** A new folder: with no template of its own unless given. */
export type NewFolder = Omit<FolderRow, "templateId"> & { templateId?: string | null };

export function folderRepo(db: Db, t: Tables, transaction: Transaction, dialect: Dialect) {
  const { folderMembers, folders, users } = t;
  // Every note page offers them; between writes, from memory where the dialect can tell.
  const namesCache = dialect.readCache<{ id: string; name: string }[]>();
  // Asked once per request that reads notes: from memory between writes where the dialect can tell.
  const hiddenCache = dialect.readCache<string[]>();
  return {
    /**
     * The workspace's private folders the user is not a member of: the access policy's
     * `hiddenFolderIds`. Sorted, so that equal sets give equal statements.
     */
    async hiddenFrom(workspaceId: string, userId: string): Promise<string[]> {
      const load = async () =>
        (
          await db
            .select({ id: folders.id })
            .from(folders)
            .where(
              and(
                eq(folders.workspaceId, workspaceId),
                eq(folders.isPrivate, true),
                sql`NOT EXISTS (SELECT 1 FROM ${folderMembers} WHERE ${folderMembers.folderId} = ${folders.id} AND ${folderMembers.userId} = ${userId})`,
              ),
            )
            .orderBy(asc(folders.id))
        ).map((r) => r.id);
      return (await hiddenCache.get(`${workspaceId} ${userId}`, load))!;
    },
    /** The workspace's private folders: those a note must be in none of for every member to see it. */
    async privateIds(workspaceId: string): Promise<string[]> {
      return (
        await db
          .select({ id: folders.id })
          .from(folders)
          .where(and(eq(folders.workspaceId, workspaceId), eq(folders.isPrivate, true)))
      ).map((r) => r.id);
    },
    /** The members of a folder, by name. */
    async membersOf(folderId: string): Promise<{ userId: string; name: string; email: string }[]> {
      return db
        .select({ userId: users.id, name: users.name, email: users.email })
        .from(folderMembers)
        .innerJoin(users, eq(users.id, folderMembers.userId))
        .where(eq(folderMembers.folderId, folderId))
        .orderBy(asc(users.name), asc(users.id));
    },
    async removeMember(folderId: string, userId: string): Promise<boolean> {
      const gone = await db
        .delete(folderMembers)
        .where(and(eq(folderMembers.folderId, folderId), eq(folderMembers.userId, userId)))
        .returning({ userId: folderMembers.userId });
      return gone.length > 0;
    },
    /** Id, name and privacy of the workspace's folders, by name (the service keeps those the caller may see). */
    async names(workspaceId: string): Promise<{ id: string; name: string }[]> {
      const load = () =>
        db
          .select({ id: folders.id, name: folders.name })
          .from(folders)
          .where(eq(folders.workspaceId, workspaceId))
          .orderBy(asc(folders.name), asc(folders.id));
      return (await namesCache.get(workspaceId, load))!;
    },
    insert(row: NewFolder): Promise<void> {
      return transaction(async () => {
        await db.insert(folders).values(row);
        // The owner is the folder's first member.
        await db.insert(folderMembers).values({ folderId: row.id, userId: row.ownerUserId }).onConflictDoNothing();
      });
    },
    async get(workspaceId: string, id: string): Promise<FolderRow | null> {
      return first(
        await db
          .select()
          .from(folders)
          .where(and(eq(folders.workspaceId, workspaceId), eq(folders.id, id)))
          .limit(1),
      );
    },
    /** The workspace's folders with their member counts (the service keeps those the caller may see). */
    async listWithCounts(workspaceId: string): Promise<(FolderRow & { memberCount: number })[]> {
      return db
        .select({
          id: folders.id,
          workspaceId: folders.workspaceId,
          name: folders.name,
          icon: folders.icon,
          color: folders.color,
          isPrivate: folders.isPrivate,
          parentFolderId: folders.parentFolderId,
          ownerUserId: folders.ownerUserId,
          templateId: folders.templateId,
          createdAt: folders.createdAt,
          updatedAt: folders.updatedAt,
          memberCount:
            sql<number>`(SELECT count(*) FROM ${folderMembers} WHERE ${folderMembers.folderId} = ${folders.id})`.mapWith(
              Number,
            ),
        })
        .from(folders)
        .where(eq(folders.workspaceId, workspaceId))
        .orderBy(asc(folders.createdAt), asc(folders.id));
    },
    async addMember(folderId: string, userId: string): Promise<void> {
      await db.insert(folderMembers).values({ folderId, userId }).onConflictDoNothing();
    },
    /** The subset of `ids` that are folders of this workspace. */
    async existing(workspaceId: string, ids: string[]): Promise<FolderRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(folders)
        .where(and(eq(folders.workspaceId, workspaceId), inArray(folders.id, ids)));
    },
    async update(workspaceId: string, id: string, patch: Partial<FolderRow>): Promise<boolean> {
      const changed = await db
        .update(folders)
        .set(patch)
        .where(and(eq(folders.workspaceId, workspaceId), eq(folders.id, id)))
        .returning({ id: folders.id });
      return changed.length > 0;
    },
    /** Deletes a folder; its notes stay (unfiled from it) and its children move up one level. */
    delete(workspaceId: string, id: string, now: number): Promise<boolean> {
      return transaction(async () => {
        const folder = first(
          await db
            .select()
            .from(folders)
            .where(and(eq(folders.workspaceId, workspaceId), eq(folders.id, id)))
            .limit(1),
        );
        if (!folder) return false;
        await db
          .update(folders)
          .set({ parentFolderId: folder.parentFolderId, updatedAt: now })
          .where(and(eq(folders.workspaceId, workspaceId), eq(folders.parentFolderId, id)));
        await db.delete(folders).where(eq(folders.id, id));
        return true;
      });
    },
  };
}

import { and, asc, desc, eq, gt, inArray, isNull } from "drizzle-orm";
import { groupRows } from "./group-rows.js";
import type { Db } from "../open.js";
import type { invites } from "../schema/index.js";
import type { IdName } from "./members.js";
import { first, type Tables, type Transaction } from "./portable.js";

export type InviteRow = typeof invites.$inferSelect;

export function inviteRepo(db: Db, t: Tables, transaction: Transaction) {
  const { folders, inviteFolders, inviteGroups, invites, userGroups } = t;
  const pending = (workspaceId: string, now: number) =>
    and(eq(invites.workspaceId, workspaceId), isNull(invites.acceptedAt), gt(invites.expiresAt, now));
  return {
    async insert(row: InviteRow, links: { groupIds?: string[]; folderIds?: string[] } = {}): Promise<void> {
      await transaction(async () => {
        await db.insert(invites).values(row);
        if (links.groupIds?.length)
          await db.insert(inviteGroups).values(links.groupIds.map((groupId) => ({ inviteId: row.id, groupId })));
        if (links.folderIds?.length)
          await db.insert(inviteFolders).values(links.folderIds.map((folderId) => ({ inviteId: row.id, folderId })));
      });
    },
    async findPendingByEmail(workspaceId: string, email: string, now: number): Promise<InviteRow | null> {
      return first(
        await db
          .select()
          .from(invites)
          .where(and(pending(workspaceId, now), eq(invites.email, email)))
          .limit(1),
      );
    },
    /** One page plus one row of pending invites, newest first: all, or those one person sent. */
    async listPending(
      workspaceId: string,
      now: number,
      limit: number,
      offset: number,
      invitedBy?: string,
    ): Promise<InviteRow[]> {
      return db
        .select()
        .from(invites)
        .where(
          invitedBy === undefined
            ? pending(workspaceId, now)
            : and(pending(workspaceId, now), eq(invites.invitedByUserId, invitedBy)),
        )
        .orderBy(desc(invites.createdAt), desc(invites.id))
        .limit(limit + 1)
        .offset(offset);
    },
    async groupsOf(inviteIds: string[]): Promise<Map<string, IdName[]>> {
      if (!inviteIds.length) return new Map();
      const rows = await db
        .select({ inviteId: inviteGroups.inviteId, id: userGroups.id, name: userGroups.name })
        .from(inviteGroups)
        .innerJoin(userGroups, eq(userGroups.id, inviteGroups.groupId))
        .where(inArray(inviteGroups.inviteId, inviteIds))
        .orderBy(asc(userGroups.name));
      return groupRows(rows, "inviteId");
    },
    async foldersOf(inviteIds: string[]): Promise<Map<string, IdName[]>> {
      if (!inviteIds.length) return new Map();
      const rows = await db
        .select({ inviteId: inviteFolders.inviteId, id: folders.id, name: folders.name })
        .from(inviteFolders)
        .innerJoin(folders, eq(folders.id, inviteFolders.folderId))
        .where(inArray(inviteFolders.inviteId, inviteIds))
        .orderBy(asc(folders.name));
      return groupRows(rows, "inviteId");
    },
    async pendingByCode(code: string, now: number): Promise<InviteRow | null> {
      return first(
        await db
          .select()
          .from(invites)
          .where(and(eq(invites.code, code), isNull(invites.acceptedAt), gt(invites.expiresAt, now)))
          .limit(1),
      );
    },
    /** Marks an invite used; false if it was used meanwhile. */
    async markAccepted(id: string, now: number): Promise<boolean> {
      const marked = await db
        .update(invites)
        .set({ acceptedAt: now })
        .where(and(eq(invites.id, id), isNull(invites.acceptedAt)))
        .returning({ id: invites.id });
      return marked.length > 0;
    },
    async get(workspaceId: string, id: string): Promise<InviteRow | null> {
      return first(
        await db
          .select()
          .from(invites)
          .where(and(eq(invites.workspaceId, workspaceId), eq(invites.id, id)))
          .limit(1),
      );
    },
    async delete(workspaceId: string, id: string): Promise<boolean> {
      const gone = await db
        .delete(invites)
        .where(and(eq(invites.workspaceId, workspaceId), eq(invites.id, id)))
        .returning({ id: invites.id });
      return gone.length > 0;
    },
  };
}

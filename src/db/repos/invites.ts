import { and, asc, desc, eq, gt, inArray, isNull } from "drizzle-orm";
import { groupRows } from "./group-rows.js";
import type { Db } from "../open.js";
import { folders, inviteFolders, inviteGroups, invites, userGroups } from "../schema/index.js";
import type { IdName } from "./members.js";

export type InviteRow = typeof invites.$inferSelect;

function pending(workspaceId: string, now: number) {
  return and(eq(invites.workspaceId, workspaceId), isNull(invites.acceptedAt), gt(invites.expiresAt, now));
}

export function inviteRepo(db: Db) {
  return {
    insert(row: InviteRow, links: { groupIds?: string[]; folderIds?: string[] } = {}): void {
      db.transaction((tx) => {
        tx.insert(invites).values(row).run();
        if (links.groupIds?.length)
          tx.insert(inviteGroups).values(links.groupIds.map((groupId) => ({ inviteId: row.id, groupId }))).run();
        if (links.folderIds?.length)
          tx.insert(inviteFolders).values(links.folderIds.map((folderId) => ({ inviteId: row.id, folderId }))).run();
      });
    },
    findPendingByEmail(workspaceId: string, email: string, now: number): InviteRow | null {
      return db.select().from(invites).where(and(pending(workspaceId, now), eq(invites.email, email))).get() ?? null;
    },
    /** One page plus one row of pending invites, newest first. */
    listPending(workspaceId: string, now: number, limit: number, offset: number): InviteRow[] {
      return db
        .select()
        .from(invites)
        .where(pending(workspaceId, now))
        .orderBy(desc(invites.createdAt), desc(invites.id))
        .limit(limit + 1)
        .offset(offset)
        .all();
    },
    groupsOf(inviteIds: string[]): Map<string, IdName[]> {
      if (!inviteIds.length) return new Map();
      const rows = db
        .select({ inviteId: inviteGroups.inviteId, id: userGroups.id, name: userGroups.name })
        .from(inviteGroups)
        .innerJoin(userGroups, eq(userGroups.id, inviteGroups.groupId))
        .where(inArray(inviteGroups.inviteId, inviteIds))
        .orderBy(asc(userGroups.name))
        .all();
      return groupRows(rows, "inviteId");
    },
    foldersOf(inviteIds: string[]): Map<string, IdName[]> {
      if (!inviteIds.length) return new Map();
      const rows = db
        .select({ inviteId: inviteFolders.inviteId, id: folders.id, name: folders.name })
        .from(inviteFolders)
        .innerJoin(folders, eq(folders.id, inviteFolders.folderId))
        .where(inArray(inviteFolders.inviteId, inviteIds))
        .orderBy(asc(folders.name))
        .all();
      return groupRows(rows, "inviteId");
    },
    pendingByCode(code: string, now: number): InviteRow | null {
      return db.select().from(invites).where(and(eq(invites.code, code), isNull(invites.acceptedAt), gt(invites.expiresAt, now))).get() ?? null;
    },
    /** Marks an invite used; false if it was used meanwhile. */
    markAccepted(id: string, now: number): boolean {
      return db.update(invites).set({ acceptedAt: now }).where(and(eq(invites.id, id), isNull(invites.acceptedAt))).run().changes > 0;
    },
    delete(workspaceId: string, id: string): boolean {
      return db.delete(invites).where(and(eq(invites.workspaceId, workspaceId), eq(invites.id, id))).run().changes > 0;
    },
  };
}

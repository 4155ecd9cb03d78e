import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../open.js";
import { groupMembers, userGroups } from "../schema/index.js";

export type UserGroupRow = typeof userGroups.$inferSelect;

export function groupRepo(db: Db) {
  return {
    insert(row: UserGroupRow): void {
      db.insert(userGroups).values(row).run();
    },
    getByName(workspaceId: string, name: string): UserGroupRow | null {
      return (
        db
          .select()
          .from(userGroups)
          .where(and(eq(userGroups.workspaceId, workspaceId), eq(userGroups.name, name)))
          .get() ?? null
      );
    },
    listWithCounts(workspaceId: string): (UserGroupRow & { memberCount: number })[] {
      return db
        .select({
          id: userGroups.id,
          workspaceId: userGroups.workspaceId,
          name: userGroups.name,
          createdAt: userGroups.createdAt,
          memberCount: sql<number>`(SELECT count(*) FROM ${groupMembers} WHERE ${groupMembers.groupId} = ${userGroups.id})`,
        })
        .from(userGroups)
        .where(eq(userGroups.workspaceId, workspaceId))
        .orderBy(asc(userGroups.name), asc(userGroups.id))
        .all();
    },
    /** The subset of `ids` that are groups of this workspace. */
    existing(workspaceId: string, ids: string[]): UserGroupRow[] {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(userGroups)
        .where(and(eq(userGroups.workspaceId, workspaceId), inArray(userGroups.id, ids)))
        .all();
    },
  };
}

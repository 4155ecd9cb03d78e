import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../open.js";
import type { userGroups } from "../schema/index.js";
import { first, sqliteTables, type Tables } from "./portable.js";

export type UserGroupRow = typeof userGroups.$inferSelect;

export function groupRepo(db: Db, t: Tables = sqliteTables) {
  const { groupMembers, userGroups, members } = t;
  return {
    /** The users in a group of the workspace (none for another workspace's group). */
    async userIdsOf(workspaceId: string, groupId: string): Promise<string[]> {
      const rows = await db
        .select({ userId: members.userId })
        .from(groupMembers)
        .innerJoin(members, eq(members.id, groupMembers.memberId))
        .innerJoin(userGroups, eq(userGroups.id, groupMembers.groupId))
        .where(and(eq(groupMembers.groupId, groupId), eq(userGroups.workspaceId, workspaceId)));
      return rows.map((r) => r.userId);
    },
    async insert(row: UserGroupRow): Promise<void> {
      await db.insert(userGroups).values(row);
    },
    async getByName(workspaceId: string, name: string): Promise<UserGroupRow | null> {
      return first(
        await db
          .select()
          .from(userGroups)
          .where(and(eq(userGroups.workspaceId, workspaceId), eq(userGroups.name, name)))
          .limit(1),
      );
    },
    async listWithCounts(workspaceId: string): Promise<(UserGroupRow & { memberCount: number })[]> {
      return db
        .select({
          id: userGroups.id,
          workspaceId: userGroups.workspaceId,
          name: userGroups.name,
          createdAt: userGroups.createdAt,
          // PostgreSQL counts in bigint, which its driver hands over as text.
          memberCount:
            sql<number>`(SELECT count(*) FROM ${groupMembers} WHERE ${groupMembers.groupId} = ${userGroups.id})`.mapWith(
              Number,
            ),
        })
        .from(userGroups)
        .where(eq(userGroups.workspaceId, workspaceId))
        .orderBy(asc(userGroups.name), asc(userGroups.id));
    },
    /** The subset of `ids` that are groups of this workspace. */
    async existing(workspaceId: string, ids: string[]): Promise<UserGroupRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(userGroups)
        .where(and(eq(userGroups.workspaceId, workspaceId), inArray(userGroups.id, ids)));
    },
  };
}

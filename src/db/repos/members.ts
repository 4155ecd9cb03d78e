import { and, asc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { escapeLike } from "../like.js";
import { groupRows } from "./group-rows.js";
import type { Db } from "../open.js";
import { folderMembers, folders, groupMembers, members, userGroups, users } from "../schema/index.js";

export interface MemberRecord {
  id: string;
  userId: string;
  name: string;
  email: string;
  profileUrl: string;
  role: "admin" | "member";
  createdAt: number;
}

export interface IdName {
  id: string;
  name: string;
}

const memberColumns = {
  id: members.id,
  userId: members.userId,
  name: users.name,
  email: users.email,
  profileUrl: users.profileUrl,
  role: members.role,
  createdAt: members.createdAt,
};

export function memberRepo(db: Db) {
  const one = (where: SQL): MemberRecord | null =>
    db.select(memberColumns).from(members).innerJoin(users, eq(users.id, members.userId)).where(where).get() ?? null;
  // Every signed-in page resolves its viewer's membership: prepared once.
  const byUserStmt = db
    .select(memberColumns)
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.workspaceId, sql.placeholder("ws")), eq(members.userId, sql.placeholder("user"))))
    .prepare();
  return {
    insert(row: typeof members.$inferInsert): void {
      db.insert(members).values(row).run();
    },
    get(workspaceId: string, id: string): MemberRecord | null {
      return one(and(eq(members.workspaceId, workspaceId), eq(members.id, id))!);
    },
    getByUser(workspaceId: string, userId: string): MemberRecord | null {
      return (byUserStmt.get({ ws: workspaceId, user: userId }) as MemberRecord | undefined) ?? null;
    },
    firstAdmin(workspaceId: string): MemberRecord | null {
      return (
        db
          .select(memberColumns)
          .from(members)
          .innerJoin(users, eq(users.id, members.userId))
          .where(and(eq(members.workspaceId, workspaceId), eq(members.role, "admin")))
          .orderBy(asc(members.createdAt))
          .get() ?? null
      );
    },
    /** One page plus one row, so the caller can tell whether another page follows. */
    list(workspaceId: string, opts: { limit: number; offset: number; search?: string }): MemberRecord[] {
      const where = [eq(members.workspaceId, workspaceId)];
      if (opts.search) {
        const pattern = `%${escapeLike(opts.search)}%`;
        where.push(or(sql`${users.name} LIKE ${pattern} ESCAPE '\\'`, sql`${users.email} LIKE ${pattern} ESCAPE '\\'`)!);
      }
      return db
        .select(memberColumns)
        .from(members)
        .innerJoin(users, eq(users.id, members.userId))
        .where(and(...where))
        .orderBy(asc(members.createdAt), asc(members.id))
        .limit(opts.limit + 1)
        .offset(opts.offset)
        .all();
    },
    groupsOf(memberIds: string[]): Map<string, IdName[]> {
      if (memberIds.length === 0) return new Map();
      const rows = db
        .select({ memberId: groupMembers.memberId, id: userGroups.id, name: userGroups.name })
        .from(groupMembers)
        .innerJoin(userGroups, eq(userGroups.id, groupMembers.groupId))
        .where(inArray(groupMembers.memberId, memberIds))
        .orderBy(asc(userGroups.name))
        .all();
      return groupRows(rows, "memberId");
    },
    foldersOf(workspaceId: string, userIds: string[]): Map<string, IdName[]> {
      if (userIds.length === 0) return new Map();
      const rows = db
        .select({ userId: folderMembers.userId, id: folders.id, name: folders.name })
        .from(folderMembers)
        .innerJoin(folders, eq(folders.id, folderMembers.folderId))
        .where(and(eq(folders.workspaceId, workspaceId), inArray(folderMembers.userId, userIds)))
        .orderBy(asc(folders.name))
        .all();
      return groupRows(rows, "userId");
    },
    countAdmins(workspaceId: string): number {
      return db.select({ n: sql<number>`count(*)` }).from(members).where(and(eq(members.workspaceId, workspaceId), eq(members.role, "admin"))).get()!.n;
    },
    setRole(workspaceId: string, id: string, role: "admin" | "member"): boolean {
      return db.update(members).set({ role }).where(and(eq(members.workspaceId, workspaceId), eq(members.id, id))).run().changes > 0;
    },
    /** Removes a membership with the member's groups and folder memberships in that workspace. */
    remove(workspaceId: string, id: string): boolean {
      return db.transaction((tx) => {
        const m = tx.select({ userId: members.userId }).from(members).where(and(eq(members.workspaceId, workspaceId), eq(members.id, id))).get();
        if (!m) return false;
        tx.delete(groupMembers).where(eq(groupMembers.memberId, id)).run();
        tx.run(sql`DELETE FROM ${folderMembers} WHERE ${folderMembers.userId} = ${m.userId} AND ${folderMembers.folderId} IN (SELECT ${folders.id} FROM ${folders} WHERE ${folders.workspaceId} = ${workspaceId})`);
        tx.delete(members).where(eq(members.id, id)).run();
        return true;
      });
    },
    setGroups(memberId: string, groupIds: string[]): void {
      db.transaction((tx) => {
        tx.delete(groupMembers).where(eq(groupMembers.memberId, memberId)).run();
        if (groupIds.length) tx.insert(groupMembers).values(groupIds.map((groupId) => ({ groupId, memberId }))).run();
      });
    },
  };
}

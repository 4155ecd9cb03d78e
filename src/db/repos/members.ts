import { and, asc, count, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { groupRows } from "./group-rows.js";
import type { Db } from "../open.js";
import { first, type Dialect, type Tables, type Transaction } from "./portable.js";

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

export function memberRepo(db: Db, t: Tables, transaction: Transaction, dialect: Dialect) {
  const { folderMembers, folders, groupMembers, members, userGroups, users } = t;
  const memberColumns = {
    id: members.id,
    userId: members.userId,
    name: users.name,
    email: users.email,
    profileUrl: users.profileUrl,
    role: members.role,
    createdAt: members.createdAt,
  };
  const one = async (where: SQL): Promise<MemberRecord | null> =>
    first(
      await db
        .select(memberColumns)
        .from(members)
        .innerJoin(users, eq(users.id, members.userId))
        .where(where)
        .orderBy(asc(members.createdAt))
        .limit(1),
    );
  return {
    async insert(row: typeof members.$inferInsert): Promise<void> {
      await db.insert(members).values(row);
    },
    get: (workspaceId: string, id: string) => one(and(eq(members.workspaceId, workspaceId), eq(members.id, id))!),
    getByUser: (workspaceId: string, userId: string) =>
      one(and(eq(members.workspaceId, workspaceId), eq(members.userId, userId))!),
    /** A member by email, ignoring case. */
    getByEmail: (workspaceId: string, email: string) =>
      one(and(eq(members.workspaceId, workspaceId), sql`lower(${users.email}) = ${email.toLowerCase()}`)!),
    /** Whether the member asked to be mailed when a note of theirs is ready. */
    async notifyNoteReady(workspaceId: string, userId: string): Promise<boolean> {
      const row = first(
        await db
          .select({ on: members.notifyNoteReady })
          .from(members)
          .where(and(eq(members.workspaceId, workspaceId), eq(members.userId, userId)))
          .limit(1),
      );
      return row?.on ?? false;
    },
    async setNotifyNoteReady(workspaceId: string, userId: string, on: boolean): Promise<boolean> {
      const changed = await db
        .update(members)
        .set({ notifyNoteReady: on })
        .where(and(eq(members.workspaceId, workspaceId), eq(members.userId, userId)))
        .returning({ id: members.id });
      return changed.length > 0;
    },
    firstAdmin: (workspaceId: string) => one(and(eq(members.workspaceId, workspaceId), eq(members.role, "admin"))!),
    /** One page plus one row, so the caller can tell whether another page follows. */
    async list(workspaceId: string, opts: { limit: number; offset: number; search?: string }): Promise<MemberRecord[]> {
      const where = [eq(members.workspaceId, workspaceId)];
      if (opts.search)
        where.push(
          or(
            dialect.containsIgnoringCase(users.name, opts.search),
            dialect.containsIgnoringCase(users.email, opts.search),
          )!,
        );
      return db
        .select(memberColumns)
        .from(members)
        .innerJoin(users, eq(users.id, members.userId))
        .where(and(...where))
        .orderBy(asc(members.createdAt), asc(members.id))
        .limit(opts.limit + 1)
        .offset(opts.offset);
    },
    async groupsOf(memberIds: string[]): Promise<Map<string, IdName[]>> {
      if (memberIds.length === 0) return new Map();
      const rows = await db
        .select({ memberId: groupMembers.memberId, id: userGroups.id, name: userGroups.name })
        .from(groupMembers)
        .innerJoin(userGroups, eq(userGroups.id, groupMembers.groupId))
        .where(inArray(groupMembers.memberId, memberIds))
        .orderBy(asc(userGroups.name));
      return groupRows(rows, "memberId");
    },
    async foldersOf(workspaceId: string, userIds: string[]): Promise<Map<string, IdName[]>> {
      if (userIds.length === 0) return new Map();
      const rows = await db
        .select({ userId: folderMembers.userId, id: folders.id, name: folders.name })
        .from(folderMembers)
        .innerJoin(folders, eq(folders.id, folderMembers.folderId))
        .where(and(eq(folders.workspaceId, workspaceId), inArray(folderMembers.userId, userIds)))
        .orderBy(asc(folders.name));
      return groupRows(rows, "userId");
    },
    async countAdmins(workspaceId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(members)
        .where(and(eq(members.workspaceId, workspaceId), eq(members.role, "admin")));
      return row.n;
    },
    async setRole(workspaceId: string, id: string, role: "admin" | "member"): Promise<boolean> {
      const changed = await db
        .update(members)
        .set({ role })
        .where(and(eq(members.workspaceId, workspaceId), eq(members.id, id)))
        .returning({ id: members.id });
      return changed.length > 0;
    },
    /** Removes a membership with the member's groups and folder memberships in that workspace. */
    remove(workspaceId: string, id: string): Promise<boolean> {
      return transaction(async () => {
        const m = first(
          await db
            .select({ userId: members.userId })
            .from(members)
            .where(and(eq(members.workspaceId, workspaceId), eq(members.id, id)))
            .limit(1),
        );
        if (!m) return false;
        await db.delete(groupMembers).where(eq(groupMembers.memberId, id));
        const workspaceFolders = db
          .select({ id: folders.id })
          .from(folders)
          .where(eq(folders.workspaceId, workspaceId));
        await db
          .delete(folderMembers)
          .where(and(eq(folderMembers.userId, m.userId), inArray(folderMembers.folderId, workspaceFolders)));
        await db.delete(members).where(eq(members.id, id));
        return true;
      });
    },
    setGroups(memberId: string, groupIds: string[]): Promise<void> {
      return transaction(async () => {
        await db.delete(groupMembers).where(eq(groupMembers.memberId, memberId));
        if (groupIds.length) await db.insert(groupMembers).values(groupIds.map((groupId) => ({ groupId, memberId })));
      });
    },
  };
}

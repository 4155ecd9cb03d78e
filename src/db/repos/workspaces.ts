import { count, eq } from "drizzle-orm";
import type { Db } from "../open.js";
import type { workspaces } from "../schema/index.js";
import { first, sqliteTables, type Tables } from "./portable.js";

export type WorkspaceRow = typeof workspaces.$inferSelect;

export function workspaceRepo(db: Db, t: Tables = sqliteTables) {
  const { members, workspaces } = t;
  return {
    async insert(row: WorkspaceRow): Promise<void> {
      await db.insert(workspaces).values(row);
    },
    async get(id: string): Promise<WorkspaceRow | null> {
      return first(await db.select().from(workspaces).where(eq(workspaces.id, id)).limit(1));
    },
    async list(): Promise<WorkspaceRow[]> {
      return db.select().from(workspaces).orderBy(workspaces.createdAt);
    },
    async count(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(workspaces);
      return row.n;
    },
    /** The workspaces a user belongs to, oldest first. */
    async ofUser(userId: string): Promise<Pick<WorkspaceRow, "id" | "name">[]> {
      return db
        .select({ id: workspaces.id, name: workspaces.name })
        .from(members)
        .innerJoin(workspaces, eq(workspaces.id, members.workspaceId))
        .where(eq(members.userId, userId))
        .orderBy(workspaces.createdAt);
    },
    async update(
      id: string,
      patch: Partial<Pick<WorkspaceRow, "name" | "settings" | "allowedEmailDomains">>,
      now: number,
    ): Promise<boolean> {
      const changed = await db
        .update(workspaces)
        .set({ ...patch, updatedAt: now })
        .where(eq(workspaces.id, id))
        .returning({ id: workspaces.id });
      return changed.length > 0;
    },
    async setPlan(id: string, plan: WorkspaceRow["plan"], now: number): Promise<boolean> {
      const changed = await db
        .update(workspaces)
        .set({ plan, updatedAt: now })
        .where(eq(workspaces.id, id))
        .returning({ id: workspaces.id });
      return changed.length > 0;
    },
  };
}

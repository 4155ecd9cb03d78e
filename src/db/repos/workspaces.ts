import { count, eq, sql } from "drizzle-orm";
import type { Db } from "../open.js";
import { members, workspaces } from "../schema/index.js";

export type WorkspaceRow = typeof workspaces.$inferSelect;

export function workspaceRepo(db: Db) {
  // Read on every request that shows a workspace: prepared once.
  const getStmt = db.select().from(workspaces).where(eq(workspaces.id, sql.placeholder("id"))).prepare();
  const ofUserStmt = db
    .select({ id: workspaces.id, name: workspaces.name })
    .from(members)
    .innerJoin(workspaces, eq(workspaces.id, members.workspaceId))
    .where(eq(members.userId, sql.placeholder("user")))
    .orderBy(workspaces.createdAt)
    .prepare();
  return {
    insert(row: WorkspaceRow): void {
      db.insert(workspaces).values(row).run();
    },
    get(id: string): WorkspaceRow | null {
      return getStmt.get({ id }) ?? null;
    },
    list(): WorkspaceRow[] {
      return db.select().from(workspaces).orderBy(workspaces.createdAt).all();
    },
    count(): number {
      return db.select({ n: count() }).from(workspaces).get()!.n;
    },
    /** The workspaces a user belongs to, oldest first. */
    ofUser(userId: string): Pick<WorkspaceRow, "id" | "name">[] {
      return ofUserStmt.all({ user: userId }) as Pick<WorkspaceRow, "id" | "name">[];
    },
    update(id: string, patch: Partial<Pick<WorkspaceRow, "name" | "settings" | "allowedEmailDomains">>, now: number): boolean {
      return db.update(workspaces).set({ ...patch, updatedAt: now }).where(eq(workspaces.id, id)).run().changes > 0;
    },
    setPlan(id: string, plan: WorkspaceRow["plan"], now: number): boolean {
      return db.update(workspaces).set({ plan, updatedAt: now }).where(eq(workspaces.id, id)).run().changes > 0;
    },
  };
}

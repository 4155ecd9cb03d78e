import { eq, sql } from "drizzle-orm";
import type { Db } from "../open.js";
import { workspaces } from "../schema.js";

export type WorkspaceRow = typeof workspaces.$inferSelect;

export function workspaceRepo(db: Db) {
  // Read on every request that shows a workspace: prepared once.
  const getStmt = db.select().from(workspaces).where(eq(workspaces.id, sql.placeholder("id"))).prepare();
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
      return db.select().from(workspaces).all().length;
    },
    setPlan(id: string, plan: WorkspaceRow["plan"], now: number): boolean {
      return db.update(workspaces).set({ plan, updatedAt: now }).where(eq(workspaces.id, id)).run().changes > 0;
    },
  };
}

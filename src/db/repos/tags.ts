import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../open.js";
import { tags } from "../schema/index.js";

export type TagRow = typeof tags.$inferSelect;

export function tagRepo(db: Db) {
  return {
    insert(row: TagRow): void {
      db.insert(tags).values(row).run();
    },
    getByName(workspaceId: string, name: string): TagRow | null {
      return db.select().from(tags).where(and(eq(tags.workspaceId, workspaceId), eq(tags.name, name))).get() ?? null;
    },
    list(workspaceId: string): TagRow[] {
      return db.select().from(tags).where(eq(tags.workspaceId, workspaceId)).orderBy(asc(tags.name), asc(tags.id)).all();
    },
  };
}

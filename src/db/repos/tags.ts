import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../open.js";
import type { tags } from "../schema/index.js";
import { first, sqliteTables, type Tables } from "./portable.js";

export type TagRow = typeof tags.$inferSelect;

export function tagRepo(db: Db, t: Tables = sqliteTables) {
  const { tags } = t;
  return {
    async insert(row: TagRow): Promise<void> {
      await db.insert(tags).values(row);
    },
    async getByName(workspaceId: string, name: string): Promise<TagRow | null> {
      return first(
        await db
          .select()
          .from(tags)
          .where(and(eq(tags.workspaceId, workspaceId), eq(tags.name, name)))
          .limit(1),
      );
    },
    async list(workspaceId: string): Promise<TagRow[]> {
      return db.select().from(tags).where(eq(tags.workspaceId, workspaceId)).orderBy(asc(tags.name), asc(tags.id));
    },
  };
}

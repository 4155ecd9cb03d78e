import { and, asc, desc, eq } from "drizzle-orm";
import type { Db } from "../open.js";
import type { knowledgeArticles } from "../schema/index.js";
import { first, sqliteTables, type Tables } from "./portable.js";

export type KnowledgeRow = typeof knowledgeArticles.$inferSelect;

export function knowledgeRepo(db: Db, t: Tables = sqliteTables) {
  const { knowledgeArticles } = t;
  return {
    async insert(row: KnowledgeRow): Promise<void> {
      await db.insert(knowledgeArticles).values(row);
    },
    async list(workspaceId: string, limit: number, offset: number): Promise<KnowledgeRow[]> {
      return db
        .select()
        .from(knowledgeArticles)
        .where(eq(knowledgeArticles.workspaceId, workspaceId))
        .orderBy(desc(knowledgeArticles.createdAt), desc(knowledgeArticles.id))
        .limit(limit + 1)
        .offset(offset);
    },
    /** Every article's id (for rebuilding indexes). */
    async allIds(): Promise<string[]> {
      return (
        await db.select({ id: knowledgeArticles.id }).from(knowledgeArticles).orderBy(asc(knowledgeArticles.createdAt))
      ).map((r) => r.id);
    },
    async getById(id: string): Promise<KnowledgeRow | null> {
      return first(await db.select().from(knowledgeArticles).where(eq(knowledgeArticles.id, id)).limit(1));
    },
    async delete(workspaceId: string, id: string): Promise<boolean> {
      const gone = await db
        .delete(knowledgeArticles)
        .where(and(eq(knowledgeArticles.workspaceId, workspaceId), eq(knowledgeArticles.id, id)))
        .returning({ id: knowledgeArticles.id });
      return gone.length > 0;
    },
  };
}

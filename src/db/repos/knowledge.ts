import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../open.js";
import { knowledgeArticles } from "../schema/index.js";

export type KnowledgeRow = typeof knowledgeArticles.$inferSelect;

export function knowledgeRepo(db: Db) {
  return {
    insert(row: KnowledgeRow): void {
      db.insert(knowledgeArticles).values(row).run();
    },
    list(workspaceId: string, limit: number, offset: number): KnowledgeRow[] {
      return db
        .select()
        .from(knowledgeArticles)
        .where(eq(knowledgeArticles.workspaceId, workspaceId))
        .orderBy(desc(knowledgeArticles.createdAt), desc(knowledgeArticles.id))
        .limit(limit + 1)
        .offset(offset)
        .all();
    },
    getById(id: string): KnowledgeRow | null {
      return db.select().from(knowledgeArticles).where(eq(knowledgeArticles.id, id)).get() ?? null;
    },
    delete(workspaceId: string, id: string): boolean {
      return (
        db
          .delete(knowledgeArticles)
          .where(and(eq(knowledgeArticles.workspaceId, workspaceId), eq(knowledgeArticles.id, id)))
          .run().changes > 0
      );
    },
  };
}

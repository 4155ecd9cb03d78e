// Each person's threads of questions to their meetings: every read and write is by
// the owner's workspace and user, so one person's threads are never another's.
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../open.js";
import type { askThreads } from "../schema/index.js";
import { first, sqliteTables, type Tables } from "./portable.js";

export type AskThreadRow = typeof askThreads.$inferSelect;

interface Owner {
  workspaceId: string;
  userId: string;
}

export function askThreadRepo(db: Db, t: Tables = sqliteTables) {
  const { askThreads } = t;
  const mine = (o: Owner) => and(eq(askThreads.workspaceId, o.workspaceId), eq(askThreads.userId, o.userId));
  return {
    get: async (o: Owner, id: string): Promise<AskThreadRow | null> =>
      first(
        await db
          .select()
          .from(askThreads)
          .where(and(mine(o), eq(askThreads.id, id)))
          .limit(1),
      ),
    /** The owner's threads, the latest asked first. */
    list: (o: Owner, limit: number): Promise<AskThreadRow[]> =>
      db.select().from(askThreads).where(mine(o)).orderBy(desc(askThreads.updatedAt), desc(askThreads.id)).limit(limit),
    async create(row: AskThreadRow): Promise<void> {
      await db.insert(askThreads).values(row);
    },
    async update(o: Owner, id: string, set: Pick<AskThreadRow, "turns" | "updatedAt">): Promise<void> {
      await db
        .update(askThreads)
        .set(set)
        .where(and(mine(o), eq(askThreads.id, id)));
    },
    async remove(o: Owner, id: string): Promise<boolean> {
      return (
        (
          await db
            .delete(askThreads)
            .where(and(mine(o), eq(askThreads.id, id)))
            .returning({ id: askThreads.id })
        ).length > 0
      );
    },
  };
}

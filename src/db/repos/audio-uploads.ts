import { and, eq } from "drizzle-orm";
import type { Db } from "../open.js";
import type { audioUploads } from "../schema/index.js";
import { first, sqliteTables, type Tables } from "./portable.js";

export type AudioUploadRow = typeof audioUploads.$inferSelect;

export function audioUploadRepo(db: Db, t: Tables = sqliteTables) {
  const { audioUploads } = t;
  return {
    async insert(row: AudioUploadRow): Promise<void> {
      await db.insert(audioUploads).values(row);
    },
    async get(id: string): Promise<AudioUploadRow | null> {
      return first(await db.select().from(audioUploads).where(eq(audioUploads.id, id)).limit(1));
    },
    async getInWorkspace(workspaceId: string, id: string): Promise<AudioUploadRow | null> {
      return first(
        await db
          .select()
          .from(audioUploads)
          .where(and(eq(audioUploads.workspaceId, workspaceId), eq(audioUploads.id, id)))
          .limit(1),
      );
    },
    /** Moves an upload from one status to another; false if it was not in `from`. */
    async transition(id: string, from: AudioUploadRow["status"], patch: Partial<AudioUploadRow>): Promise<boolean> {
      const changed = await db
        .update(audioUploads)
        .set(patch)
        .where(and(eq(audioUploads.id, id), eq(audioUploads.status, from)))
        .returning({ id: audioUploads.id });
      return changed.length > 0;
    },
    /** After a crash, uploads that were being received start over. */
    async resetReceiving(): Promise<number> {
      const changed = await db
        .update(audioUploads)
        .set({ status: "pending" })
        .where(eq(audioUploads.status, "receiving"))
        .returning({ id: audioUploads.id });
      return changed.length;
    },
  };
}

import { and, eq } from "drizzle-orm";
import type { Db } from "../open.js";
import { audioUploads } from "../schema/index.js";

export type AudioUploadRow = typeof audioUploads.$inferSelect;

export function audioUploadRepo(db: Db) {
  /** Moves an upload from one status to another; false if it was not in `from`. */
  function transition(id: string, from: AudioUploadRow["status"], patch: Partial<AudioUploadRow>): boolean {
    return db.update(audioUploads).set(patch).where(and(eq(audioUploads.id, id), eq(audioUploads.status, from))).run().changes > 0;
  }
  return {
    insert(row: AudioUploadRow): void {
      db.insert(audioUploads).values(row).run();
    },
    get(id: string): AudioUploadRow | null {
      return db.select().from(audioUploads).where(eq(audioUploads.id, id)).get() ?? null;
    },
    getInWorkspace(workspaceId: string, id: string): AudioUploadRow | null {
      return db.select().from(audioUploads).where(and(eq(audioUploads.workspaceId, workspaceId), eq(audioUploads.id, id))).get() ?? null;
    },
    transition,
    /** After a crash, uploads that were being received start over. */
    resetReceiving(): number {
      return db.update(audioUploads).set({ status: "pending" }).where(eq(audioUploads.status, "receiving")).run().changes;
    },
  };
}

// Live recordings (schema/processing.ts, recordings): their life cycle apart from
// uploads', moved from one status to the next only from the status the caller expects,
// so that two replicas (or the watchdog and a person) never both stop one.
import { and, count, eq } from "drizzle-orm";
import type { Db } from "../open.js";
import type { recordings } from "../schema/index.js";
import { first, sqliteTables, type Tables } from "./portable.js";

export type RecordingRow = typeof recordings.$inferSelect;

export function recordingRepo(db: Db, t: Tables = sqliteTables) {
  const { recordings } = t;
  return {
    async insert(row: RecordingRow): Promise<void> {
      await db.insert(recordings).values(row);
    },
    async get(id: string): Promise<RecordingRow | null> {
      return first(await db.select().from(recordings).where(eq(recordings.id, id)).limit(1));
    },
    /** Changes a recording that is in `from`; false if it was not (stopped meanwhile, say). */
    async transition(id: string, from: RecordingRow["status"], patch: Partial<RecordingRow>): Promise<boolean> {
      const changed = await db
        .update(recordings)
        .set(patch)
        .where(and(eq(recordings.id, id), eq(recordings.status, from)))
        .returning({ id: recordings.id });
      return changed.length > 0;
    },
    /** Recordings of the workspace under way. */
    async countLive(workspaceId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(recordings)
        .where(and(eq(recordings.workspaceId, workspaceId), eq(recordings.status, "recording")));
      return Number(row?.n ?? 0);
    },
    async delete(id: string): Promise<void> {
      await db.delete(recordings).where(eq(recordings.id, id));
    },
  };
}

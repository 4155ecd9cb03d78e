// The pieces of live recordings (schema/processing.ts, recordingPieces).
import { and, asc, count, eq, max, sql, sum } from "drizzle-orm";
import type { Db } from "../open.js";
import type { recordingPieces } from "../schema/index.js";
import { first, sqliteTables, type Tables } from "./portable.js";

export type RecordingPieceRow = typeof recordingPieces.$inferSelect;

export interface PieceSummary {
  pieces: number;
  /** The highest number received, or -1. */
  lastSeq: number;
  bytes: number;
  durationMs: number;
}

export function recordingPieceRepo(db: Db, t: Tables = sqliteTables) {
  const { recordingPieces } = t;
  return {
    /** Records a stored piece; false when that number was recorded already (the caller compares). */
    async insert(row: RecordingPieceRow): Promise<boolean> {
      const added = await db
        .insert(recordingPieces)
        .values(row)
        .onConflictDoNothing()
        .returning({ seq: recordingPieces.seq });
      return added.length > 0;
    },
    async get(recordingId: string, seq: number): Promise<RecordingPieceRow | null> {
      return first(
        await db
          .select()
          .from(recordingPieces)
          .where(and(eq(recordingPieces.recordingId, recordingId), eq(recordingPieces.seq, seq)))
          .limit(1),
      );
    },
    /** Every piece's number, size and length, in order. */
    async list(recordingId: string): Promise<Pick<RecordingPieceRow, "seq" | "bytes" | "durationMs">[]> {
      return await db
        .select({ seq: recordingPieces.seq, bytes: recordingPieces.bytes, durationMs: recordingPieces.durationMs })
        .from(recordingPieces)
        .where(eq(recordingPieces.recordingId, recordingId))
        .orderBy(asc(recordingPieces.seq));
    },
    async summary(recordingId: string): Promise<PieceSummary> {
      const [row] = await db
        .select({
          pieces: count(),
          lastSeq: max(recordingPieces.seq),
          bytes: sum(recordingPieces.bytes),
          durationMs: sql<number>`coalesce(sum(${recordingPieces.durationMs}), 0)`,
        })
        .from(recordingPieces)
        .where(eq(recordingPieces.recordingId, recordingId));
      return {
        pieces: Number(row?.pieces ?? 0),
        lastSeq: row?.lastSeq === null || row?.lastSeq === undefined ? -1 : Number(row.lastSeq),
        bytes: Number(row?.bytes ?? 0),
        durationMs: Number(row?.durationMs ?? 0),
      };
    },
    async deleteAll(recordingId: string): Promise<void> {
      await db.delete(recordingPieces).where(eq(recordingPieces.recordingId, recordingId));
    },
  };
}

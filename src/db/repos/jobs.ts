// The job queue's table. Claiming is one UPDATE … RETURNING, so two workers (or two
// processes on the same data dir) never take the same job.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../open.js";
import { jobs } from "../schema/index.js";

export type JobRow = typeof jobs.$inferSelect;

export function jobRepo(db: Db) {
  const claimStmt = db.$client.prepare(`
    UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_until = @leaseUntil, updated_at = @now
    WHERE id = (
      SELECT id FROM jobs
      WHERE kind = @kind AND ((status = 'queued' AND available_at <= @now) OR (status = 'running' AND lease_until < @now))
      ORDER BY available_at, id LIMIT 1
    )
    RETURNING *`);

  const toRow = (r: Record<string, unknown>): JobRow => ({
    id: r.id as number,
    kind: r.kind as string,
    payload: JSON.parse(r.payload as string),
    status: r.status as JobRow["status"],
    attempts: r.attempts as number,
    maxAttempts: r.max_attempts as number,
    availableAt: r.available_at as number,
    leaseUntil: r.lease_until as number | null,
    lastError: r.last_error as string | null,
    idempotencyKey: r.idempotency_key as string | null,
    createdAt: r.created_at as number,
    updatedAt: r.updated_at as number,
  });

  return {
    /** Inserts a job unless an unfinished one has the same idempotency key; returns the job's id. */
    enqueue(job: {
      kind: string;
      payload: Record<string, unknown>;
      maxAttempts: number;
      availableAt: number;
      idempotencyKey?: string;
      coalesceQueuedOnly?: boolean;
      now: number;
    }): number {
      return db.transaction((tx) => {
        if (job.idempotencyKey) {
          const existing = tx
            .select({ id: jobs.id })
            .from(jobs)
            .where(and(eq(jobs.idempotencyKey, job.idempotencyKey), inArray(jobs.status, job.coalesceQueuedOnly ? ["queued"] : ["queued", "running"])))
            .get();
          if (existing) return existing.id;
        }
        return tx
          .insert(jobs)
          .values({
            kind: job.kind,
            payload: job.payload,
            status: "queued",
            attempts: 0,
            maxAttempts: job.maxAttempts,
            availableAt: job.availableAt,
            idempotencyKey: job.idempotencyKey ?? null,
            createdAt: job.now,
            updatedAt: job.now,
          })
          .returning({ id: jobs.id })
          .get().id;
      });
    },
    /** At start: jobs marked running belong to a process that no longer exists. */
    requeueRunning(now: number): number {
      return db
        .update(jobs)
        .set({ status: "queued", leaseUntil: null, availableAt: now, updatedAt: now })
        .where(eq(jobs.status, "running"))
        .run().changes;
    },
    hasUnfinished(idempotencyKey: string): boolean {
      return Boolean(
        db
          .select({ id: jobs.id })
          .from(jobs)
          .where(and(eq(jobs.idempotencyKey, idempotencyKey), inArray(jobs.status, ["queued", "running"])))
          .get(),
      );
    },
    claim(kind: string, now: number, leaseMs: number): JobRow | null {
      const row = claimStmt.get({ kind, now, leaseUntil: now + leaseMs }) as Record<string, unknown> | undefined;
      return row ? toRow(row) : null;
    },
    /** Extends a running job's lease; false if the job is no longer this worker's. */
    heartbeat(id: number, attempts: number, leaseUntil: number, now: number): boolean {
      return (
        db
          .update(jobs)
          .set({ leaseUntil, updatedAt: now })
          .where(and(eq(jobs.id, id), eq(jobs.status, "running"), eq(jobs.attempts, attempts)))
          .run().changes > 0
      );
    },
    succeed(id: number, attempts: number, now: number): void {
      db.update(jobs)
        .set({ status: "succeeded", leaseUntil: null, lastError: null, updatedAt: now })
        .where(and(eq(jobs.id, id), eq(jobs.attempts, attempts)))
        .run();
    },
    retryLater(id: number, attempts: number, error: string, availableAt: number, now: number): void {
      db.update(jobs)
        .set({ status: "queued", leaseUntil: null, lastError: error, availableAt, updatedAt: now })
        .where(and(eq(jobs.id, id), eq(jobs.attempts, attempts)))
        .run();
    },
    fail(id: number, attempts: number, error: string, now: number): void {
      db.update(jobs)
        .set({ status: "failed", leaseUntil: null, lastError: error, updatedAt: now })
        .where(and(eq(jobs.id, id), eq(jobs.attempts, attempts)))
        .run();
    },
    get(id: number): JobRow | null {
      return db.select().from(jobs).where(eq(jobs.id, id)).get() ?? null;
    },
    nextAvailableAt(kind: string): number | null {
      const row = db
        .select({ at: sql<number>`min(CASE WHEN status = 'queued' THEN available_at ELSE lease_until END)` })
        .from(jobs)
        .where(and(eq(jobs.kind, kind), inArray(jobs.status, ["queued", "running"])))
        .get();
      return row?.at ?? null;
    },
    countByStatus(kind?: string): Record<string, number> {
      const rows = db
        .select({ status: jobs.status, n: sql<number>`count(*)` })
        .from(jobs)
        .where(kind ? eq(jobs.kind, kind) : undefined)
        .groupBy(jobs.status)
        .all();
      return Object.fromEntries(rows.map((r) => [r.status, r.n]));
    },
  };
}

// The job queue's table. Claiming is one atomic statement, so two workers (or two
// processes, or two replicas) never take the same job: an UPDATE … RETURNING of the
// oldest ready row, which PostgreSQL picks with FOR UPDATE SKIP LOCKED so that
// concurrent claims pass each other instead of waiting.
import { and, asc, count, eq, gt, inArray, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../open.js";
import type { jobs } from "../schema/index.js";
import { first, type Dialect, type Tables, type Transaction } from "./portable.js";

export type JobRow = typeof jobs.$inferSelect;

const nullableNumber = (v: unknown) => (v === null ? null : Number(v));

export function jobRepo(db: Db, t: Tables, transaction: Transaction, dialect: Dialect) {
  const { jobs } = t;
  const ready = (kind: string, now: number) =>
    and(
      eq(jobs.kind, kind),
      or(
        and(eq(jobs.status, "queued"), lte(jobs.availableAt, now)),
        and(eq(jobs.status, "running"), lt(jobs.leaseUntil, now)),
      ),
    );
  const changed = (rows: unknown[]) => rows.length;

  return {
    /** Inserts a job unless an unfinished one has the same idempotency key; returns the job's id. */
    enqueue(job: {
      kind: string;
      payload: Record<string, unknown>;
      maxAttempts: number;
      availableAt: number;
      idempotencyKey?: string;
      coalesceQueuedOnly?: boolean;
      /** No job can hold the key yet (it names what the caller's transaction just made): no check. */
      freshKey?: boolean;
      now: number;
    }): Promise<number> {
      return transaction(async () => {
        if (job.idempotencyKey && !job.freshKey) {
          // Two replicas enqueueing the same key at once: the second waits, then finds the first's.
          await dialect.lockForTransaction(`job:${job.idempotencyKey}`);
          const statuses: JobRow["status"][] = job.coalesceQueuedOnly ? ["queued"] : ["queued", "running"];
          const existing = first(
            await db
              .select({ id: jobs.id })
              .from(jobs)
              .where(and(eq(jobs.idempotencyKey, job.idempotencyKey), inArray(jobs.status, statuses)))
              .limit(1),
          );
          if (existing) return existing.id;
        }
        const [row] = await db
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
          .returning({ id: jobs.id });
        return row.id;
      });
    },
    /** At start of a single-box server: jobs marked running belong to a process that no longer exists. */
    async requeueRunning(now: number): Promise<number> {
      return changed(
        await db
          .update(jobs)
          .set({ status: "queued", leaseUntil: null, availableAt: now, updatedAt: now })
          .where(eq(jobs.status, "running"))
          .returning({ id: jobs.id }),
      );
    },
    async hasUnfinished(idempotencyKey: string): Promise<boolean> {
      return (
        (
          await db
            .select({ id: jobs.id })
            .from(jobs)
            .where(and(eq(jobs.idempotencyKey, idempotencyKey), inArray(jobs.status, ["queued", "running"])))
            .limit(1)
        ).length > 0
      );
    },
    async claim(kind: string, now: number, leaseMs: number): Promise<JobRow | null> {
      // The oldest job of each way one is ready, each read as one step of the
      // (kind, status, available_at, id) index: a lease that ran out first (its worker
      // is gone, it is overdue), then the oldest waiting job. One OR with an ORDER BY
      // read and sorted every ready job on each claim, so a backlog made each claim slower.
      const oldest = (status: "queued" | "running", due: SQL) =>
        sql`(${db
          .select({ id: jobs.id })
          .from(jobs)
          .where(and(eq(jobs.kind, kind), eq(jobs.status, status), due))
          .orderBy(asc(jobs.availableAt), asc(jobs.id))
          .limit(1)} ${dialect.claimingRows})`;
      const next = sql`coalesce(${oldest("running", lt(jobs.leaseUntil, now))}, ${oldest("queued", lte(jobs.availableAt, now))})`;
      return first(
        await db
          .update(jobs)
          .set({ status: "running", attempts: sql`${jobs.attempts} + 1`, leaseUntil: now + leaseMs, updatedAt: now })
          // "id = (subquery)", not IN: PostgreSQL may plan IN as a join that reads the
          // subquery again, and a LIMIT 1 … SKIP LOCKED then comes back empty under load.
          // The row is checked again itself: under SQLite's serialized writes that always holds.
          .where(and(sql`${jobs.id} = ${next}`, ready(kind, now)))
          .returning(),
      );
    },
    /** Extends a running job's lease; false if the job is no longer this worker's. */
    async heartbeat(id: number, attempts: number, leaseUntil: number, now: number): Promise<boolean> {
      return (
        changed(
          await db
            .update(jobs)
            .set({ leaseUntil, updatedAt: now })
            .where(and(eq(jobs.id, id), eq(jobs.status, "running"), eq(jobs.attempts, attempts)))
            .returning({ id: jobs.id }),
        ) > 0
      );
    },
    async succeed(id: number, attempts: number, now: number): Promise<void> {
      await db
        .update(jobs)
        .set({ status: "succeeded", leaseUntil: null, lastError: null, updatedAt: now })
        .where(and(eq(jobs.id, id), eq(jobs.attempts, attempts)));
    },
    async retryLater(id: number, attempts: number, error: string, availableAt: number, now: number): Promise<void> {
      await db
        .update(jobs)
        .set({ status: "queued", leaseUntil: null, lastError: error, availableAt, updatedAt: now })
        .where(and(eq(jobs.id, id), eq(jobs.attempts, attempts)));
    },
    /**
     * Hands a running job back unfinished (its worker is stopping): queued again at once,
     * and the attempt it was on not counted, since the job did not fail.
     */
    async release(id: number, attempts: number, now: number): Promise<void> {
      await db
        .update(jobs)
        .set({
          status: "queued",
          attempts: sql`${jobs.attempts} - 1`,
          leaseUntil: null,
          availableAt: now,
          updatedAt: now,
        })
        .where(and(eq(jobs.id, id), eq(jobs.status, "running"), eq(jobs.attempts, attempts)));
    },
    async fail(id: number, attempts: number, error: string, now: number): Promise<void> {
      await db
        .update(jobs)
        .set({ status: "failed", leaseUntil: null, lastError: error, updatedAt: now })
        .where(and(eq(jobs.id, id), eq(jobs.attempts, attempts)));
    },
    async get(id: number): Promise<JobRow | null> {
      return first(await db.select().from(jobs).where(eq(jobs.id, id)).limit(1));
    },
    async nextAvailableAt(kind: string): Promise<number | null> {
      // When the next job is due: the oldest waiting one (a step of the index), or the
      // first lease to run out among the running ones (a handful).
      const [row] = await db
        .select({
          queued: sql<number | null>`(${db
            .select({ at: jobs.availableAt })
            .from(jobs)
            .where(and(eq(jobs.kind, kind), eq(jobs.status, "queued")))
            .orderBy(asc(jobs.availableAt))
            .limit(1)})`.mapWith(nullableNumber),
          lease: sql<number | null>`(${db
            .select({ at: sql`min(${jobs.leaseUntil})` })
            .from(jobs)
            .where(and(eq(jobs.kind, kind), eq(jobs.status, "running")))})`.mapWith(nullableNumber),
        })
        .from(sql`(SELECT 1) AS one`);
      const due = [row?.queued, row?.lease].filter((v): v is number => typeof v === "number");
      return due.length ? Math.min(...due) : null;
    },
    /** Waiting and running jobs by kind: the queue's depth, for metrics. */
    async depth(): Promise<{ kind: string; status: string; n: number }[]> {
      const rows = await db
        .select({ kind: jobs.kind, status: jobs.status, n: count() })
        .from(jobs)
        .where(inArray(jobs.status, ["queued", "running"]))
        .groupBy(jobs.kind, jobs.status);
      return rows.map((r) => ({ kind: r.kind, status: r.status, n: Number(r.n) }));
    },
    async countByStatus(kind?: string): Promise<Record<string, number>> {
      const rows = await db
        .select({ status: jobs.status, n: count() })
        .from(jobs)
        .where(kind ? eq(jobs.kind, kind) : gt(jobs.id, 0))
        .groupBy(jobs.status);
      return Object.fromEntries(rows.map((r) => [r.status, r.n]));
    },
  };
}

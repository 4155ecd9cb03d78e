// The job table on PostgreSQL, where replicas claim from the same rows: every job is
// taken once however many workers claim at the same time, an idempotency key holds
// across concurrent enqueues, and a job whose lease ran out is taken again.
import { describe, expect, it } from "vitest";
import { portableRepositories } from "../../src/db/repos/index.js";
import { pgPortableRepositories } from "../../src/db/pg/portable.js";
import { openPostgres } from "../../src/db/pg/open.js";
import { pgConnection } from "../../src/db/pg/connection.js";
import { withPostgres } from "../helpers/postgres.js";
import { createPgRepositories } from "../../src/db/pg/repos.js";

describe("jobs on PostgreSQL", () => {
  const ctx = withPostgres();
  const replica = async () => {
    const opened = await openPostgres(ctx.database.url, { poolSize: 4 });
    const conn = pgConnection(opened.db);
    return {
      opened,
      jobs: pgPortableRepositories(conn.db, conn.transaction).jobs,
    };
  };

  it("claims every job exactly once across replicas, keeps idempotency keys under concurrency, and retakes expired leases", async () => {
    const [a, b] = [await replica(), await replica()];
    try {
      const now = 1_000;
      const ids = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? a : b).jobs.enqueue({ kind: "work", payload: { i }, maxAttempts: 3, availableAt: now, now }),
        ),
      );
      expect(new Set(ids).size).toBe(40);
      // The same key from both replicas at once: one job.
      const keyed = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? a : b).jobs.enqueue({
            kind: "work",
            payload: {},
            maxAttempts: 3,
            availableAt: now,
            idempotencyKey: "note:1",
            now,
          }),
        ),
      );
      expect(new Set(keyed).size).toBe(1);

      const claimed: number[] = [];
      const claimer = async (r: typeof a) => {
        for (;;) {
          const job = await r.jobs.claim("work", now, 60_000);
          if (!job) return;
          claimed.push(job.id);
        }
      };
      await Promise.all([claimer(a), claimer(a), claimer(b), claimer(b)]);
      expect(claimed.length).toBe(41);
      expect(new Set(claimed).size).toBe(41);
      expect(await a.jobs.countByStatus("work")).toEqual({ running: 41 });

      // A worker that died: after its lease, another replica takes the job again, as attempt 2.
      const retaken = await b.jobs.claim("work", now + 61_000, 60_000);
      expect(retaken?.attempts).toBe(2);
      expect(await a.jobs.heartbeat(retaken!.id, 1, now + 70_000, now + 61_000)).toBe(false); // the old attempt lost it
      await b.jobs.succeed(retaken!.id, 2, now + 62_000);
      expect((await a.jobs.get(retaken!.id))?.status).toBe("succeeded");
      expect(await a.jobs.hasUnfinished("note:1")).toBe(true);
      expect(await a.jobs.nextAvailableAt("work")).toBe(now + 60_000);
    } finally {
      await a.opened.close();
      await b.opened.close();
    }
  });

  it("polls for work and settles it on the job queue's own connections, and an enqueue inside a transaction commits or rolls back with it", async () => {
    const opened = await openPostgres(ctx.database.url, { poolSize: 2, jobPoolSize: 1 });
    try {
      const repos = createPgRepositories(opened.db, { prepared: opened.prepared, jobs: opened.jobs });
      const before = opened.poolFigures();
      const now = 5_000;
      const id = await repos.jobs.enqueue({ kind: "own-pool", payload: {}, maxAttempts: 3, availableAt: now, now });
      for (let i = 0; i < 5; i++) await repos.jobs.claim("own-pool-idle", now, 60_000);
      const job = await repos.jobs.claim("own-pool", now, 60_000);
      expect(job?.id).toBe(id);
      expect(await repos.jobs.heartbeat(id, 1, now + 60_000, now)).toBe(true);
      await repos.jobs.succeed(id, 1, now);
      const after = opened.poolFigures();
      // All of it on the job pool's one connection, made once and kept.
      expect(after.job_pool_connections_made).toBe(1);
      expect(after.job_pool_total).toBe(1);
      // Nothing on the requests' pool, beyond what was already open.
      expect(after.pool_connections_made).toBe(before.pool_connections_made);

      // A job a request's transaction queues is that transaction's: gone with its rollback…
      await expect(
        repos.transaction(async () => {
          await repos.jobs.enqueue({ kind: "in-tx", payload: {}, maxAttempts: 3, availableAt: now, now });
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(await repos.jobs.countByStatus("in-tx")).toEqual({});
      // …and there with its commit.
      await repos.transaction(() =>
        repos.jobs.enqueue({ kind: "in-tx", payload: {}, maxAttempts: 3, availableAt: now, now }),
      );
      expect(await repos.jobs.countByStatus("in-tx")).toEqual({ queued: 1 });
    } finally {
      await opened.close();
    }
  });
});

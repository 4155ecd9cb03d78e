// The job table on PostgreSQL, where replicas claim from the same rows: every job is
// taken once however many workers claim at the same time, an idempotency key holds
// across concurrent enqueues, and a job whose lease ran out is taken again.
import { describe, expect, it } from "vitest";
import { portableRepositories } from "../../src/db/repos/index.js";
import { pgPortableRepositories } from "../../src/db/pg/portable.js";
import { openPostgres } from "../../src/db/pg/open.js";
import { pgConnection } from "../../src/db/pg/connection.js";
import { withPostgres } from "../helpers/postgres.js";

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
});

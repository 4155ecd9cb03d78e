// Which job a claim takes, alike on SQLite and PostgreSQL: a job whose lease ran out
// before any waiting one, then the oldest due job, never one not yet due; and when
// nothing is ready, when the next one will be. With thousands waiting, a claim on
// PostgreSQL reads one step of the claim index instead of sorting every waiting job.
// A job queued with a fresh key (for a note just made) still holds its key.
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/open.js";
import { createRepositories } from "../../src/db/repos/index.js";
import { pgPortableRepositories } from "../../src/db/pg/portable.js";
import { openPostgres } from "../../src/db/pg/open.js";
import { pgConnection } from "../../src/db/pg/connection.js";
import { withPostgres } from "../helpers/postgres.js";
import { tempDir } from "../helpers/server.js";

type Jobs = ReturnType<typeof createRepositories>["jobs"];

const now = 1_000_000;
const enqueue = (jobs: Jobs, name: string, availableAt: number, kind = "work") =>
  jobs.enqueue({ kind, payload: { name }, maxAttempts: 3, availableAt, now });
const claimName = async (jobs: Jobs, at: number) => {
  const job = await jobs.claim("work", at, 60_000);
  return job ? (job.payload as { name: string }).name : null;
};

async function claimsInOrder(jobs: Jobs) {
  expect(await jobs.nextAvailableAt("work")).toBeNull();
  await enqueue(jobs, "later", now + 5_000);
  await enqueue(jobs, "second", now - 100);
  await enqueue(jobs, "first", now - 200);
  await enqueue(jobs, "other kind", now - 300, "elsewhere");
  expect(await jobs.nextAvailableAt("work")).toBe(now - 200);

  expect(await claimName(jobs, now)).toBe("first");
  // Its worker dies: its lease runs out while "second" waits, and it is taken again first.
  const expired = now + 61_000;
  expect(await claimName(jobs, expired)).toBe("first");
  expect(await claimName(jobs, expired)).toBe("second");
  expect(await claimName(jobs, expired)).toBe("later");
  expect(await claimName(jobs, expired)).toBeNull();
  // Nothing waits: the next due is the first lease to run out ("first", claimed last at `expired`).
  expect(await jobs.nextAvailableAt("work")).toBe(expired + 60_000);
}

describe("job claims", () => {
  let close: (() => Promise<void> | void) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it("on SQLite: a lapsed lease first, then the oldest due job, and when the next is due", async () => {
    const opened = openDatabase(`${tempDir()}/jobs.db`);
    close = () => opened.close();
    await claimsInOrder(createRepositories(opened.db).jobs);
  });

  it("a job queued for something just made holds its key: a later job with that key joins it", async () => {
    const opened = openDatabase(`${tempDir()}/jobs.db`);
    close = () => opened.close();
    const { jobs } = createRepositories(opened.db);
    const key = { idempotencyKey: "index:note:n1", coalesceQueuedOnly: true };
    const first = await jobs.enqueue({
      kind: "index",
      payload: {},
      maxAttempts: 3,
      availableAt: now,
      now,
      ...key,
      freshKey: true,
    });
    expect(await jobs.enqueue({ kind: "index", payload: {}, maxAttempts: 3, availableAt: now, now, ...key })).toBe(
      first,
    );
    expect(await jobs.countByStatus("index")).toEqual({ queued: 1 });
  });

  describe("on PostgreSQL", () => {
    const ctx = withPostgres();
    // One connection, so that the statistics read are the session's that claimed.
    const open = async () => {
      const opened = await openPostgres(ctx.database.url, { poolSize: 1 });
      close = () => opened.close();
      const conn = pgConnection(opened.db);
      return { opened, jobs: pgPortableRepositories(conn.db, conn.transaction).jobs as unknown as Jobs };
    };

    it("a lapsed lease first, then the oldest due job, and when the next is due", async () => {
      await claimsInOrder((await open()).jobs);
    });

    it("reads a few rows, not every waiting job, with thousands waiting", async () => {
      const { opened, jobs } = await open();
      const client = opened.db.$client;
      await client.query(
        `INSERT INTO jobs (kind, payload, status, max_attempts, available_at, created_at, updated_at)
         SELECT 'work', '{}', 'queued', 3, $1::bigint - i, $1, $1 FROM generate_series(1, 5000) i`,
        [now],
      );
      await client.query("ANALYZE jobs");
      // Rows of the jobs table read, by a scan or through an index, as the server counts them.
      const rowsRead = async () => {
        await client.query("SELECT pg_stat_force_next_flush()");
        const { rows } = await client.query<{ n: string }>(
          "SELECT seq_tup_read + coalesce(idx_tup_fetch, 0) AS n FROM pg_stat_user_tables WHERE relname = 'jobs'",
        );
        return Number(rows[0].n);
      };
      const before = await rowsRead();
      const job = await jobs.claim("work", now, 60_000);
      const read = (await rowsRead()) - before;
      expect(job?.availableAt).toBe(now - 5000);
      // Sorting every waiting job read all 5,000.
      expect(read).toBeLessThan(50);
    });
  });
});

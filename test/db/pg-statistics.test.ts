// PostgreSQL plans from the statistics ANALYZE gathers; where autovacuum is off or has
// not come round yet, a table that grew from nothing is planned as if empty. A serving
// process analyzes its tables that changed past autovacuum's threshold, one replica at
// a time, and leaves alone those that did not.
import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { createPgRepositories } from "../../src/db/pg/repos.js";
import { keepPlannerStatistics, STATISTICS_LOCK, type StatisticsKeeper } from "../../src/db/pg/statistics.js";
import { withPostgres } from "../helpers/postgres.js";
import { workspaceRow } from "../helpers/rows.js";
import { until } from "../helpers/until.js";

describe("the planner's statistics on PostgreSQL", () => {
  const ctx = withPostgres();
  const keepers: StatisticsKeeper[] = [];
  afterAll(() => Promise.all(keepers.map((k) => k.stop())));

  const query = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
    (await ctx.pg.pool.query<T>(text, values)).rows;
  const table = async (name: string) =>
    (
      await query<{ analyzed: boolean; changed: string }>(
        `SELECT last_analyze IS NOT NULL AS analyzed, n_mod_since_analyze AS changed
           FROM pg_stat_user_tables WHERE relname = $1 AND schemaname = current_schema()`,
        [name],
      )
    )[0];
  const dead = async (name: string) =>
    (
      await query<{ live: string; dead: string }>(
        `SELECT n_live_tup AS live, n_dead_tup AS dead FROM pg_stat_user_tables
          WHERE relname = $1 AND schemaname = current_schema()`,
        [name],
      )
    )[0];
  // Each backend reports its changes to the statistics views a moment after it commits.
  const changesSeen = (name: string, n: number) =>
    until(
      `${n} changes to ${name} to reach the statistics views`,
      async () => Number((await table(name)).changed) >= n,
    );

  it("analyzes a table that grew, on its timer, and the planner then knows its size", async () => {
    await createPgRepositories(ctx.pg.db, { prepared: ctx.pg.prepared }).workspaces.insert(workspaceRow("ws_1"));
    await query(
      `INSERT INTO tags (id, workspace_id, name, color, created_at)
         SELECT 'tag_' || i, 'ws_1', 'tag ' || i, '#000000', i FROM generate_series(1, 2000) i`,
    );
    expect((await table("tags")).analyzed).toBe(false);
    const keeper = keepPlannerStatistics(ctx.pg.pool, { everyMs: 50 });
    try {
      await until("the timer to analyze tags", async () => (await table("tags")).analyzed);
    } finally {
      await keeper.stop();
    }
    const [{ rows }] = await query<{ rows: number }>(
      "SELECT reltuples::int AS rows FROM pg_class WHERE relname = 'tags'",
    );
    expect(rows).toBe(2000);
  });

  it("leaves a table alone while its changes stay under autovacuum's threshold (50 rows and a tenth)", async () => {
    const keeper = keepPlannerStatistics(ctx.pg.pool, { everyMs: 3_600_000 });
    keepers.push(keeper);
    await query(
      `INSERT INTO tags (id, workspace_id, name, color, created_at)
         SELECT 'more_' || i, 'ws_1', 'more ' || i, '#000000', i FROM generate_series(1, 240) i`,
    );
    await changesSeen("tags", 240);
    expect((await keeper.check()).analyzed).not.toContain("tags");
    // 2,000 rows: 50 + 200 is the edge; the 251st change passes it.
    await query(
      `INSERT INTO tags (id, workspace_id, name, color, created_at)
         SELECT 'edge_' || i, 'ws_1', 'edge ' || i, '#000000', i FROM generate_series(1, 11) i`,
    );
    await changesSeen("tags", 251);
    expect((await keeper.check()).analyzed).toContain("tags");
    expect(Number((await table("tags")).changed)).toBe(0);
  });

  it("analyzes nothing while another replica holds the turn, and its due tables once it is free", async () => {
    const keeper = keepPlannerStatistics(ctx.pg.pool, { everyMs: 3_600_000 });
    keepers.push(keeper);
    await query(
      `INSERT INTO rate_counters (key, window_start, count, expires_at)
         SELECT 'k' || i, 0, 1, 0 FROM generate_series(1, 500) i`,
    );
    await changesSeen("rate_counters", 500);
    const other = new pg.Client({ connectionString: ctx.database.url });
    await other.connect();
    try {
      await other.query("SELECT pg_advisory_lock($1)", [STATISTICS_LOCK]);
      expect(await keeper.check()).toEqual({ analyzed: [], vacuumed: [] });
      expect((await table("rate_counters")).analyzed).toBe(false);
      await other.query("SELECT pg_advisory_unlock($1)", [STATISTICS_LOCK]);
    } finally {
      await other.end();
    }
    expect((await keeper.check()).analyzed).toContain("rate_counters");
  });

  it("vacuums a table with autovacuum off for it once its dead rows pass autovacuum's threshold (50 and a fifth)", async () => {
    // One session with the server's statement timeout: the vacuum lifts it, and gives it back.
    const session = new pg.Pool({ connectionString: ctx.database.url, max: 1, options: "-c statement_timeout=30000" });
    const keeper = keepPlannerStatistics(session, { everyMs: 3_600_000 });
    keepers.push(keeper);
    // Two tables of 500 rows, their size known to the planner; each then has rows
    // rewritten by one statement (a later read of a page could prune what an earlier
    // one left, and the count with it): 50 + 100 dead rows is the edge.
    for (const name of ["under_edge", "past_edge"]) {
      await query(`CREATE TABLE ${name} (id integer PRIMARY KEY, v text) WITH (autovacuum_enabled = false)`);
      await query(`INSERT INTO ${name} SELECT i, 'v' FROM generate_series(1, 500) i`);
      await query(`ANALYZE ${name}`);
    }
    await query("UPDATE under_edge SET v = 'w' WHERE id <= 150");
    await query("UPDATE past_edge SET v = 'w' WHERE id <= 151");
    await until(
      "the dead rows to be counted",
      async () => Number((await dead("under_edge")).dead) >= 150 && Number((await dead("past_edge")).dead) >= 151,
    );
    const { vacuumed } = await keeper.check();
    expect(vacuumed).toContain("past_edge");
    expect(vacuumed).not.toContain("under_edge");
    expect(Number((await dead("past_edge")).dead)).toBe(0);
    await keeper.stop();
    expect((await session.query("SHOW statement_timeout")).rows[0].statement_timeout).toBe("30s");
    await session.end();
  });
});

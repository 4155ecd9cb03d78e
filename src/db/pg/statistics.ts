// PostgreSQL plans every statement from the statistics ANALYZE gathers, and only
// autovacuum gathers them unasked: where it is off (some managed and CI servers turn
// it off), or in its first minute, a table that grew from nothing to thousands of
// notes is planned as if it held a handful. Seen: the notes of a workspace estimated
// at 9 rows of 1,000, so a search for a rare word read every note's words in turn
// (18.7 ms) instead of asking the index (5.1 ms once analyzed); a page of 20 took 3.6
// against 2.4 ms. So a serving process looks, every few seconds, for its tables that
// changed by more than autovacuum's own threshold since anyone last analyzed them,
// and analyzes those itself. An advisory lock keeps replicas from doing it twice;
// with autovacuum on and keeping up, there is seldom anything left to do.
//
// Where autovacuum is off, nothing vacuums either: every rewrite of a row leaves its
// old version behind for every read to step over (after 1,000 meetings were made, the
// job queue's table held two dead rows for each live one, and the notes one each), and
// a table only ever written to never gets the visibility map its index-only scans
// need. There, and only there, the same process vacuums a table at autovacuum's own
// thresholds too.
import type pg from "pg";

/** How often the statistics views are read (one query of a few milliseconds). */
const CHECK_MS = 5_000;
/** autovacuum's defaults: analyzed once this many rows, and this share of the table's, have changed. */
const THRESHOLD_ROWS = 50;
const THRESHOLD_SHARE = 0.1;
/** autovacuum's defaults for vacuuming: dead rows, and rows inserted since the last vacuum. */
const VACUUM_DEAD_ROWS = 50;
const VACUUM_INSERTED_ROWS = 1000;
const VACUUM_SHARE = 0.2;
/** Any number, the same for every notula: the key of the lock replicas take turns under. */
export const STATISTICS_LOCK = 7_406_118_210;

/** What one look did: the tables analyzed, and those vacuumed (with autovacuum off). */
export interface KeptTables {
  analyzed: string[];
  vacuumed: string[];
}

export interface StatisticsKeeper {
  /** Analyzes (and vacuums) what is due now: the timer's work; also for tests. */
  check(): Promise<KeptTables>;
  stop(): Promise<void>;
}

export function keepPlannerStatistics(
  pool: pg.Pool,
  opts: { everyMs?: number; onError?: (err: Error) => void } = {},
): StatisticsKeeper {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<KeptTables> | null = null;

  async function analyzeDue(): Promise<KeptTables> {
    const done: KeptTables = { analyzed: [], vacuumed: [] };
    const client = await pool.connect();
    // A session that failed midway may still hold the lock: it is closed, not pooled.
    let failed: Error | undefined;
    try {
      const { rows: lock } = await client.query<{ held: boolean }>("SELECT pg_try_advisory_lock($1) AS held", [
        STATISTICS_LOCK,
      ]);
      if (!lock[0].held) return done;
      try {
        // As autovacuum reckons: against the rows the table had when last analyzed or
        // vacuumed (none, never). A table is left to autovacuum unless it is off for it.
        const { rows } = await client.query<{ name: string; due_analyze: boolean; due_vacuum: boolean }>(
          `SELECT name, due_analyze, due_vacuum FROM (
             SELECT s.relname AS name,
                    s.n_mod_since_analyze > $1::float8 + $2::float8 * greatest(c.reltuples, 0) AS due_analyze,
                    (current_setting('autovacuum') = 'off' OR c.reloptions @> ARRAY['autovacuum_enabled=false'])
                      AND (s.n_dead_tup > $3::float8 + $5::float8 * greatest(c.reltuples, 0)
                           OR s.n_ins_since_vacuum > $4::float8 + $5::float8 * greatest(c.reltuples, 0)) AS due_vacuum,
                    s.n_mod_since_analyze + s.n_dead_tup AS changed
               FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
              WHERE s.schemaname = current_schema()) t
            WHERE due_analyze OR due_vacuum ORDER BY changed DESC`,
          [THRESHOLD_ROWS, THRESHOLD_SHARE, VACUUM_DEAD_ROWS, VACUUM_INSERTED_ROWS, VACUUM_SHARE],
        );
        for (const { name, due_analyze: analyze, due_vacuum: vacuum } of rows) {
          if (stopped) break;
          const table = client.escapeIdentifier(name);
          if (vacuum) {
            // A large table's vacuum may outlast the sessions' statement timeout, and one
            // cut short would start again at the next look, for ever. (A session that
            // fails between the two is closed, not pooled, so it keeps no setting.)
            await client.query("SET statement_timeout = 0");
            await client.query(`VACUUM ${analyze ? "(ANALYZE) " : ""}${table}`);
            await client.query("RESET statement_timeout");
          } else await client.query(`ANALYZE ${table}`);
          if (analyze) done.analyzed.push(name);
          if (vacuum) done.vacuumed.push(name);
        }
        return done;
      } finally {
        await client.query("SELECT pg_advisory_unlock($1)", [STATISTICS_LOCK]);
      }
    } catch (err) {
      failed = err as Error;
      throw err;
    } finally {
      client.release(failed);
    }
  }

  function check(): Promise<KeptTables> {
    running ??= analyzeDue().finally(() => (running = null));
    return running;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      check()
        .catch((err: Error) => opts.onError?.(err))
        .finally(schedule);
    }, opts.everyMs ?? CHECK_MS).unref();
  }
  schedule();

  return {
    check,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => {});
    },
  };
}

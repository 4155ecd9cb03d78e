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
import type pg from "pg";

/** How often the statistics views are read (one query of a few milliseconds). */
const CHECK_MS = 5_000;
/** autovacuum's defaults: analyzed once this many rows, and this share of the table's, have changed. */
const THRESHOLD_ROWS = 50;
const THRESHOLD_SHARE = 0.1;
/** Any number, the same for every notula: the key of the lock replicas take turns under. */
export const STATISTICS_LOCK = 7_406_118_210;

export interface StatisticsKeeper {
  /** Analyzes what is due now (the timer's work; also for tests). The tables analyzed. */
  check(): Promise<string[]>;
  stop(): Promise<void>;
}

export function keepPlannerStatistics(
  pool: pg.Pool,
  opts: { everyMs?: number; onError?: (err: Error) => void } = {},
): StatisticsKeeper {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<string[]> | null = null;

  async function analyzeDue(): Promise<string[]> {
    const client = await pool.connect();
    // A session that failed midway may still hold the lock: it is closed, not pooled.
    let failed: Error | undefined;
    try {
      const { rows: lock } = await client.query<{ held: boolean }>("SELECT pg_try_advisory_lock($1) AS held", [
        STATISTICS_LOCK,
      ]);
      if (!lock[0].held) return [];
      try {
        const { rows } = await client.query<{ name: string }>(
          // As autovacuum reckons: against the rows the table had when last analyzed (none, never).
          `SELECT s.relname AS name FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
            WHERE s.schemaname = current_schema()
              AND s.n_mod_since_analyze > $1::float8 + $2::float8 * greatest(c.reltuples, 0)
            ORDER BY s.n_mod_since_analyze DESC`,
          [THRESHOLD_ROWS, THRESHOLD_SHARE],
        );
        const done: string[] = [];
        for (const { name } of rows) {
          if (stopped) break;
          await client.query(`ANALYZE ${client.escapeIdentifier(name)}`);
          done.push(name);
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

  function check(): Promise<string[]> {
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

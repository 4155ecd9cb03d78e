// A cache of reads that is exact, not eventually right: it is dropped whenever what it
// holds may have changed. It holds only facts (keys, sessions, members, workspaces,
// users, private folders), and SQLite counts every change to them, whichever connection
// or process makes it (`notula admin` too), by triggers on their tables (drizzle/0039):
// the count is read on every peek, a one-row statement, so other writes (notes, jobs,
// transcripts) leave the cache as it is, and a revoked key fails on the next request.
//
// A value read inside a transaction is never kept: the transaction may still roll back
// what it wrote, count and all, and the count would then come back to a value it had
// before. Kept values are read from what is committed, whose count only goes up.
import type Database from "better-sqlite3";

export function createReadCache<V>(sqlite: Database.Database, limit = 10_000) {
  const generation = sqlite.prepare("SELECT n FROM fact_generation WHERE id = 1").pluck();
  const entries = new Map<string, V>();
  let seen: number | undefined;
  /** The value kept for `key`, once whatever changed the facts since has dropped it. */
  function peek(key: string): V | undefined {
    const now = generation.get() as number;
    if (now !== seen) {
      entries.clear();
      seen = now;
    }
    return entries.get(key);
  }
  /**
   * Keeps a value read just now, in the same turn as its peek (misses are not kept:
   * unknown cookies must not fill memory).
   */
  function keep(key: string, value: V | null): V | null {
    if (value === null || sqlite.inTransaction) return value;
    if (entries.size >= limit) entries.clear();
    entries.set(key, value);
    return value;
  }
  return {
    peek,
    keep,
  };
}

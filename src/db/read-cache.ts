// A cache of reads that is exact, not eventually right: it is dropped whenever the
// database may have changed. PRAGMA data_version moves when another connection (a
// second process, `notula admin`) commits; total_changes() counts this connection's own
// writes. Checking both costs two trivial statements, less than the joins it spares.
import type Database from "better-sqlite3";

export function createReadCache<V>(sqlite: Database.Database, limit = 10_000) {
  const version = sqlite
    .prepare("SELECT (SELECT data_version FROM pragma_data_version) || ':' || total_changes()")
    .pluck();
  const entries = new Map<string, V>();
  let seen = "";
  /** The value kept for `key`, once whatever the database changed since has dropped it. */
  function peek(key: string): V | undefined {
    const now = version.get() as string;
    if (now !== seen) {
      entries.clear();
      seen = now;
    }
    return entries.get(key);
  }
  /** Keeps a value read just now (misses are not kept: unknown cookies must not fill memory). */
  function keep(key: string, value: V | null): V | null {
    if (value === null) return null;
    if (entries.size >= limit) entries.clear();
    entries.set(key, value);
    return value;
  }
  return {
    peek,
    keep,
  };
}

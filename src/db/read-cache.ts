// A cache of reads that is exact, not eventually right: it is dropped whenever the
// database may have changed. PRAGMA data_version moves when another connection (a
// second process, `notula admin`) commits; total_changes() counts this connection's own
// writes. Checking both costs two trivial statements, less than the joins it spares.
import type Database from "better-sqlite3";

export function createReadCache<V>(sqlite: Database.Database, limit = 10_000) {
  const version = sqlite.prepare("SELECT (SELECT data_version FROM pragma_data_version) || ':' || total_changes()").pluck();
  const entries = new Map<string, V>();
  let seen = "";
  return {
    /** The cached value for `key`, or `load()`'s (cached unless null). */
    get(key: string, load: () => V | null): V | null {
      const now = version.get() as string;
      if (now !== seen) {
        entries.clear();
        seen = now;
      }
      const hit = entries.get(key);
      if (hit !== undefined) return hit;
      const value = load();
      // Misses are not kept: unknown cookies must not fill memory.
      if (value === null) return null;
      if (entries.size >= limit) entries.clear();
      entries.set(key, value);
      return value;
    },
  };
}

// A cache of reads that is exact, not eventually right: it is dropped whenever the
// database may have changed. total_changes() counts this connection's own writes and is
// checked on every read (it touches no page). PRAGMA data_version moves when another
// connection (a second process, `notula admin`) commits; reading it opens a read
// transaction, so it is read once per turn of the event loop: everything one turn
// serves sees the database as of that turn's start, as one read transaction would.
import type Database from "better-sqlite3";

export function createReadCache<V>(sqlite: Database.Database, limit = 10_000) {
  const othersCommits = sqlite.prepare("PRAGMA data_version").pluck();
  const ownWrites = sqlite.prepare("SELECT total_changes()").pluck();
  let othersThisTurn: number | null = null;
  const entries = new Map<string, V>();
  let seen = "";
  function version(): string {
    if (othersThisTurn === null) {
      othersThisTurn = othersCommits.get() as number;
      setImmediate(() => (othersThisTurn = null));
    }
    return `${othersThisTurn}:${ownWrites.get() as number}`;
  }
  /** The value kept for `key`, once whatever the database changed since has dropped it. */
  function peek(key: string): V | undefined {
    const now = version();
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

// When PostgreSQL may have changed what a caller is: the keys, sessions, members,
// workspaces, users and private folders every request resolves first. Triggers on
// those tables (migration 0014) send a notification on commit; one listening
// connection per process hears them, whichever replica or `notula admin` wrote. This
// process's own writes count the moment they are made (the repositories report them),
// so that a revoked key fails on the very next request that follows the revocation.
//
// The read caches built on it (postgresDialect's readCache) are exact in the way
// SQLite's are: a value read before a change is never kept after it. A value is kept
// only when no change of this process was under way while it was read and no
// notification came in between; while the listening connection is down, or before it
// has heard its own probe, nothing is cached at all.
import { randomBytes } from "node:crypto";
import pg from "pg";

/** The channel the triggers of migration 0014 notify. */
export const FACTS_CHANNEL = "notula_facts";
/** The tables whose rows make up a caller's facts; the triggers watch the same ones. */
export const FACT_TABLES = new Set([
  "api_keys",
  "web_sessions",
  "members",
  "workspaces",
  "users",
  "folders",
  "folder_members",
]);

/** Longest a listening connection waits for its own probe before it is trusted; a pooler that drops notifications never passes. */
const PROBE_TIMEOUT_MS = 5_000;
const RETRY_MAX_MS = 30_000;

export interface FactChanges {
  /** Whether values may be kept: the feed hears every change. */
  readonly live: boolean;
  /** Moves on every change heard or made; a value read across a move is not kept. */
  readonly generation: number;
  /** Changes of this process under way (begun, not yet committed or abandoned). */
  readonly writing: number;
  /** This process begins a change to the facts; call the returned function once it is committed or abandoned. */
  begin(): () => void;
  close(): Promise<void>;
}

/** A feed that hears nothing and so lets nothing be kept: for tools that open PostgreSQL briefly. */
export const noFactChanges: FactChanges = {
  live: false,
  generation: 0,
  writing: 0,
  begin: () => () => {},
  close: async () => {},
};

export function listenForFactChanges(url: string, opts: { onError?: (err: Error) => void } = {}): FactChanges {
  let live = false;
  let generation = 0;
  let writing = 0;
  let closed = false;
  let client: pg.Client | null = null;
  let retryMs = 500;
  let retryTimer: NodeJS.Timeout | undefined;

  const moved = () => {
    generation++;
  };

  async function connect() {
    if (closed) return;
    const c = new pg.Client({ connectionString: url, application_name: "notula-facts" });
    client = c;
    const lost = (err?: Error) => {
      if (client !== c) return;
      client = null;
      live = false;
      moved();
      if (err) opts.onError?.(err);
      c.end().catch(() => {});
      if (!closed) {
        retryTimer = setTimeout(() => void connect(), retryMs);
        retryTimer.unref();
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      }
    };
    c.on("error", lost);
    c.on("end", () => lost());
    try {
      await c.connect();
      // The probe: a notification sent through another session must come back here.
      const probe = `probe:${randomBytes(8).toString("hex")}`;
      const heard = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
        c.on("notification", (n) => {
          if (n.payload === probe) {
            clearTimeout(timer);
            resolve(true);
          }
        });
      });
      c.on("notification", (n) => {
        if (n.channel === FACTS_CHANNEL && !n.payload?.startsWith("probe:")) moved();
      });
      await c.query(`LISTEN ${FACTS_CHANNEL}`);
      const sender = new pg.Client({ connectionString: url, application_name: "notula-facts" });
      await sender.connect();
      try {
        await sender.query("SELECT pg_notify($1, $2)", [FACTS_CHANNEL, probe]);
      } finally {
        await sender.end();
      }
      if (!(await heard)) throw new Error("the database does not deliver notifications to this connection");
      if (client !== c) return;
      retryMs = 500;
      moved();
      live = true;
    } catch (err) {
      lost(err as Error);
    }
  }
  void connect();

  return {
    get live() {
      return live;
    },
    get generation() {
      return generation;
    },
    get writing() {
      return writing;
    },
    begin() {
      writing++;
      moved();
      let done = false;
      return () => {
        if (done) return;
        done = true;
        writing--;
        moved();
      };
    },
    async close() {
      closed = true;
      live = false;
      clearTimeout(retryTimer);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}

/**
 * A read cache over the feed: `get` answers from memory while nothing changed since
 * the value was read, and keeps a fresh read only when nothing changed while it was
 * being read. Misses are not kept, so unknown keys cannot fill memory.
 */
export function factCache<V>(facts: FactChanges, limit = 10_000) {
  const entries = new Map<string, V>();
  let seen = -1;
  return {
    get(key: string, load: () => Promise<V | null>): Promise<V | null> {
      if (!facts.live) return load();
      if (facts.generation !== seen) {
        entries.clear();
        seen = facts.generation;
      }
      const hit = entries.get(key);
      if (hit !== undefined) return Promise.resolve(hit);
      const before = facts.generation;
      return load().then((value) => {
        if (value !== null && facts.live && facts.writing === 0 && facts.generation === before) {
          if (entries.size >= limit) entries.clear();
          entries.set(key, value);
        }
        return value;
      });
    },
  };
}

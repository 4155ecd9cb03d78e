// Opens a PostgreSQL database: a connection pool with a statement timeout, and the
// PostgreSQL migrations applied under an advisory lock, so that replicas starting
// together migrate once.
import pg from "pg";
import { drizzle, type NodePgDatabase, type NodePgQueryResultHKT } from "drizzle-orm/node-postgres";
import type { PgDatabase } from "drizzle-orm/pg-core";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { migrationsFolder } from "../open.js";
import { pgSchema } from "./schema.js";
import fs from "node:fs";
import { setUpVectorIndex, type VectorIndexState } from "./vector-index.js";
import { listenForFactChanges, noFactChanges, type FactChanges } from "./fact-changes.js";
import path from "node:path";

export type PgDb = NodePgDatabase<typeof pgSchema> & { $client: pg.Pool };

/** What a repository queries through: the pool or an open transaction (both drizzle PostgreSQL databases). */
export type PgQueryable = PgDatabase<NodePgQueryResultHKT, typeof pgSchema>;

export interface PgOptions {
  /** Connections per process for requests (and half as many again for the generic-plan statements). */
  poolSize?: number;
  /** Connections per process of the job queue's own (claims, leases, results); none: it shares the pool. */
  jobPoolSize?: number;
  /** Longest a statement may run before PostgreSQL cancels it. */
  statementTimeoutMs?: number;
  migrate?: boolean;
  /**
   * Listen for changes to the callers' facts, so that the reads every request starts
   * with can be kept in memory between changes (fact-changes.ts). For a serving
   * process; a tool that opens the database briefly needs none.
   */
  listenForChanges?: boolean;
}

export interface OpenedPostgres {
  db: PgDb;
  pool: pg.Pool;
  /**
   * The same database through a second, smaller pool whose sessions always use a
   * prepared statement's generic plan: for the hot statements whose best plan does not
   * depend on their values (see createPgRepositories).
   */
  prepared: PgDb;
  /** The job queue's own pool, when one was asked for. */
  jobs?: PgDb;
  /** Each pool's connections (total, idle, waiting, made since it opened), for metrics. */
  poolFigures(): Record<string, number>;
  /** Whether meaning-based search has pgvector's index (see vector-index.ts). */
  vectorIndex: VectorIndexState;
  /** Changes to the callers' facts, as this process hears of them (none unless asked for). */
  facts: FactChanges;
  close(): Promise<void>;
}

/** The longest a pooled connection lives, so that its sessions' plans are made again (openPostgres). */
const CONNECTION_LIFETIME_SEC = 60;

/** Any number, the same for every notula: the key of the migration lock. */
const MIGRATION_LOCK = 7_406_118_209;

export const pgMigrationsFolder = () => path.join(migrationsFolder(), "pg");

/** Where a URL's password is, so logs and errors never carry it. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(an unparsable database URL)";
  }
}

export async function openPostgres(url: string, options: PgOptions = {}): Promise<OpenedPostgres> {
  const poolSize = options.poolSize ?? 10;
  // Per session: applies to every statement of every connection of the pool. No JIT:
  // PostgreSQL compiles a statement whose estimated cost passes jit_above_cost, and for
  // statements that run in milliseconds the compiling is most of the time (asking
  // which vector indexes are due a build took 8 ms, 7 of them compiling, after every
  // note indexed).
  const timeout = `-c statement_timeout=${options.statementTimeoutMs ?? 30_000} -c jit=off`;
  // A connection lives at most CONNECTION_LIFETIME_SEC (and closes after 10 s idle, pg's
  // default). A session plans each named statement once and keeps the plan: one made
  // while the notes table was small walks it whole once it has grown. Measured: a server
  // whose connections were kept from an empty database to 3,000 notes listed a page in
  // 4.2 ms, a new one in 1.7 ms (and one note in 3.0 against 1.3 ms). A new connection
  // costs a few milliseconds once a minute. TCP keepalives find one a firewall has dropped.
  const poolOf = (max: number, sessionOptions: string) =>
    new pg.Pool({
      connectionString: url,
      max,
      maxLifetimeSeconds: CONNECTION_LIFETIME_SEC,
      keepAlive: true,
      options: sessionOptions,
      application_name: "notula",
    });
  const pool = poolOf(poolSize, timeout);
  // PostgreSQL plans a named statement afresh on every run while a plan for its values
  // looks cheaper than its generic plan, and for a list by folder and dates it always
  // does: planning then costs as much as running. A setting per statement does not
  // exist, so these statements get sessions of their own.
  const preparedPool = poolOf(Math.max(1, Math.ceil(poolSize / 2)), `${timeout} -c plan_cache_mode=force_generic_plan`);
  // Polling for work is a statement a second per kind of job per replica, and a job's
  // lease is renewed every third of it: on connections of their own, a burst of
  // background work never holds one a request is waiting for.
  const jobsPool = options.jobPoolSize ? poolOf(options.jobPoolSize, timeout) : null;
  const pools = [pool, preparedPool, ...(jobsPool ? [jobsPool] : [])];
  const made = new Map<pg.Pool, number>(pools.map((p) => [p, 0]));
  for (const p of pools) p.on("connect", () => made.set(p, made.get(p)! + 1));
  // An idle connection that breaks (a restart of the database) must not crash the process.
  for (const p of pools) p.on("error", () => {});
  let vectorIndex: VectorIndexState = {
    enabled: false,
    detail: "not set up (migrations were not run by this process)",
  };
  try {
    const client = await pool.connect();
    try {
      if (options.migrate !== false) {
        await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
        try {
          await migrate(drizzle(client), { migrationsFolder: pgMigrationsFolder() });
          vectorIndex = await setUpVectorIndex(client);
        } finally {
          await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
        }
      }
    } finally {
      client.release();
    }
  } catch (err) {
    await Promise.all(pools.map((p) => p.end())).catch(() => {});
    throw new Error(`PostgreSQL at ${redactUrl(url)}: ${(err as Error).message}`);
  }
  const db = drizzle(pool, { schema: pgSchema }) as PgDb;
  const prepared = drizzle(preparedPool, { schema: pgSchema }) as PgDb;
  const facts = options.listenForChanges ? listenForFactChanges(url) : noFactChanges;
  const figures = (prefix: string, p: pg.Pool) => ({
    [`${prefix}total`]: p.totalCount,
    [`${prefix}idle`]: p.idleCount,
    [`${prefix}waiting`]: p.waitingCount,
    [`${prefix}connections_made`]: made.get(p)!,
  });
  return {
    db,
    pool,
    prepared,
    jobs: jobsPool ? (drizzle(jobsPool, { schema: pgSchema }) as PgDb) : undefined,
    poolFigures: () => ({
      ...figures("pool_", pool),
      ...figures("generic_pool_", preparedPool),
      ...(jobsPool ? figures("job_pool_", jobsPool) : {}),
    }),
    vectorIndex,
    facts,
    close: async () => {
      await Promise.all([facts.close(), ...pools.map((p) => p.end())]);
    },
  };
}

/** Whether every committed PostgreSQL migration has been applied (for /readyz). */
export async function pgMigrationsApplied(pool: pg.Pool): Promise<boolean> {
  const journal = JSON.parse(fs.readFileSync(path.join(pgMigrationsFolder(), "meta", "_journal.json"), "utf8")) as {
    entries: unknown[];
  };
  try {
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations");
    return rows[0].n >= journal.entries.length;
  } catch {
    return false;
  }
}

// The database a runtime opens, whichever it is: SQLite in the data dir (or a file
// named by --database) or a PostgreSQL server, with what /readyz, metrics and the
// admin tools ask of it.
import fs from "node:fs";
import type Database from "better-sqlite3";
import { createRepositories, type Repositories } from "../db/repos/index.js";
import { migrationsApplied, openDatabase, type Db } from "../db/open.js";
import type { DatabaseTarget } from "../db/target.js";
import { createPgRepositories } from "../db/pg/repos.js";
import { openPostgres, pgMigrationsApplied, redactUrl } from "../db/pg/open.js";
import { keepPlannerStatistics, type StatisticsKeeper } from "../db/pg/statistics.js";

/** The database the runtime opened, whichever it is. */
export interface DatabaseHandle {
  dialect: "sqlite" | "postgres";
  /** For logs: the file or the server, never a password. */
  describe: string;
  /** PostgreSQL: whether meaning-based search has pgvector's index, and why not. */
  vectorIndex?: { enabled: boolean; detail: string };
  /** For /readyz: reachable, and every migration applied. */
  check(): Promise<"ok" | "unreachable" | "pending">;
  /** For metrics: pool connections on PostgreSQL, file sizes on SQLite. */
  figures(): Record<string, number>;
  /**
   * For a process that serves and writes: keeps PostgreSQL's planner statistics current
   * while it runs (db/pg/statistics.ts), until close. SQLite plans well without them.
   */
  keepStatistics(onError: (err: Error) => void): void;
  close(): Promise<void>;
  /** SQLite only: the connection, for the admin tools and tests that speak to it directly. */
  sqlite?: Database.Database;
  db?: Db;
}

export async function openDatabaseHandle(
  target: DatabaseTarget,
  opts: { vectorIndexAt?: number; poolSize?: number; jobPoolSize?: number } = {},
): Promise<{ handle: DatabaseHandle; repos: Repositories }> {
  if (target.dialect === "postgres") {
    const pg = await openPostgres(target.url, {
      listenForChanges: true,
      poolSize: opts.poolSize,
      jobPoolSize: opts.jobPoolSize,
    });
    let statistics: StatisticsKeeper | null = null;
    return {
      repos: createPgRepositories(pg.db, {
        facts: pg.facts,
        vectorIndex: pg.vectorIndex.enabled,
        prepared: pg.prepared,
        jobs: pg.jobs,
        vectorIndexAt: opts.vectorIndexAt,
      }),
      handle: {
        dialect: "postgres",
        describe: redactUrl(target.url),
        vectorIndex: pg.vectorIndex,
        async check() {
          try {
            await pg.pool.query("SELECT 1");
          } catch {
            return "unreachable";
          }
          return (await pgMigrationsApplied(pg.pool)) ? "ok" : "pending";
        },
        figures: pg.poolFigures,
        keepStatistics(onError) {
          // On the job queue's connections where it has its own: ANALYZE of a large table takes a while.
          statistics ??= keepPlannerStatistics(pg.jobs?.$client ?? pg.pool, { onError });
        },
        async close() {
          await statistics?.stop();
          await pg.close();
        },
      },
    };
  }
  const opened = openDatabase(target.file);
  return {
    repos: createRepositories(opened.db, { vectorIndexAt: opts.vectorIndexAt }),
    handle: {
      dialect: "sqlite",
      describe: target.file,
      async check() {
        try {
          opened.sqlite.prepare("SELECT 1").get();
        } catch {
          return "unreachable";
        }
        return migrationsApplied(opened.sqlite) ? "ok" : "pending";
      },
      figures: () => ({ file_bytes: fileSize(target.file), wal_bytes: fileSize(`${target.file}-wal`) }),
      keepStatistics() {},
      close: async () => opened.close(),
      sqlite: opened.sqlite,
      db: opened.db,
    },
  };
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

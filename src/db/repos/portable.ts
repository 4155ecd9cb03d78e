// Repositories written once for both dialects use drizzle's query builders, awaited,
// and nothing else: no prepared statements, no .get()/.run(), counts of changed rows
// through RETURNING. They are typed against the SQLite database and tables; on
// PostgreSQL the same code runs over the PostgreSQL database and the tables derived
// from the same schema source (src/db/pg/schema.ts), whose values read back as the
// same JS types.
import type Database from "better-sqlite3";
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import * as schema from "../schema/index.js";
import { escapeLike } from "../like.js";
import { createReadCache } from "../read-cache.js";

export type Tables = typeof schema;
export const sqliteTables: Tables = schema;

/** The first row of a result, or null. */
export const first = <T>(rows: T[]): T | null => rows[0] ?? null;

/**
 * Runs `fn` in one transaction, joining the caller's if there is one: given to the
 * portable repositories whose writes must land together.
 */
export type Transaction = <T>(fn: () => Promise<T>) => Promise<T>;

/** Where the dialects differ in a way a portable repository must ask about. */
export interface Dialect {
  name: "sqlite" | "postgres";
  /** `column` contains `text`, ignoring case (SQLite's LIKE ignores ASCII case; PostgreSQL needs ILIKE). */
  containsIgnoringCase(column: SQLWrapper, text: string): SQL;
  /**
   * A cache of reads dropped whenever the database may have changed, where the
   * dialect can tell cheaply (SQLite); none elsewhere.
   */
  readCache<V>(): AsyncReadCache<V>;
  /**
   * Serializes, until the transaction ends, the transactions that take the same key
   * (PostgreSQL's transaction advisory locks). SQLite needs none: its write
   * transactions already run one at a time.
   */
  lockForTransaction(key: string): Promise<void>;
  /**
   * Ends a SELECT that picks a row to claim: PostgreSQL locks it and skips rows another
   * transaction holds (FOR UPDATE SKIP LOCKED); SQLite's serialized writes need nothing.
   */
  claimingRows: SQL;
}

export interface AsyncReadCache<V> {
  get(key: string, load: () => Promise<V | null>): Promise<V | null>;
}

export const contains = (op: "LIKE" | "ILIKE") => (column: SQLWrapper, text: string) =>
  sql`${column} ${sql.raw(op)} ${`%${escapeLike(text)}%`} ESCAPE '\\'`;

export function sqliteDialect(sqlite: Database.Database): Dialect {
  return {
    name: "sqlite",
    containsIgnoringCase: contains("LIKE"),
    lockForTransaction: async () => {},
    claimingRows: sql``,
    readCache<V>() {
      const cache = createReadCache<V>(sqlite);
      return {
        // Not an async function: a hit, the common case, costs one resolved promise.
        get(key: string, load: () => Promise<V | null>): Promise<V | null> {
          const hit = cache.peek(key);
          if (hit !== undefined) return Promise.resolve(hit);
          // On SQLite the load resolves within the same turn: no write can come between.
          return load().then((value) => cache.keep(key, value));
        },
      };
    },
  };
}

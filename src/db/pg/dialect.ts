// PostgreSQL's answers to what the portable repositories ask of a dialect (repos/portable.ts).
import { sql } from "drizzle-orm";
import { contains, type Dialect } from "../repos/portable.js";
import type { PgQueryable } from "./open.js";

export function postgresDialect(db: PgQueryable): Dialect {
  return {
    name: "postgres",
    containsIgnoringCase: contains("ILIKE"),
    // Nothing to cache across requests: another replica may write at any moment.
    readCache: () => ({ get: (_key, load) => load() }),
    async lockForTransaction(key) {
      await db.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`);
    },
    claimingRows: sql`FOR UPDATE SKIP LOCKED`,
  };
}

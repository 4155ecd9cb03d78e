// PostgreSQL's answers to what the portable repositories ask of a dialect (repos/portable.ts).
import { sql } from "drizzle-orm";
import { contains, type Dialect } from "../repos/portable.js";
import type { PgQueryable } from "./open.js";
import { factCache, noFactChanges, type FactChanges } from "./fact-changes.js";

export function postgresDialect(db: PgQueryable, facts: FactChanges = noFactChanges): Dialect {
  return {
    name: "postgres",
    containsIgnoringCase: contains("ILIKE"),
    // Another replica may write at any moment: values are kept only while the feed
    // hears every change to the facts they are made of (fact-changes.ts).
    readCache: () => factCache(facts),
    async lockForTransaction(key) {
      await db.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`);
    },
    claimingRows: sql`FOR UPDATE SKIP LOCKED`,
  };
}

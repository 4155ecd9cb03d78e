// The portable repositories (repos/portable.ts) over PostgreSQL.
//
// They are written once, against drizzle's SQLite types, and run unchanged over the
// PostgreSQL database and the tables derived from the same schema source
// (schema.ts): drizzle's query builders take the same calls on both, and the values
// read back as the same JS types. drizzle has no type for "a database of either
// dialect", so this is the one place the type checker is told that PostgreSQL's
// handle and tables stand in for SQLite's. What the types do not check here, the
// store contract suite (test/db/store-contract.test.ts) and the portable repositories'
// tests check on both databases.
import { portableRepositories, type PortableRepositories } from "../repos/index.js";
import type { Transaction } from "../repos/portable.js";
import type { FactChanges } from "./fact-changes.js";
import type { Db } from "../open.js";
import type { Tables } from "../repos/portable.js";
import { postgresDialect } from "./dialect.js";
import type { PgQueryable } from "./open.js";
import { pgSchema } from "./schema.js";

export function pgPortableRepositories(
  db: PgQueryable,
  transaction: Transaction,
  facts?: FactChanges,
): PortableRepositories {
  // The one cast: PostgreSQL's handle and tables, told to stand in for SQLite's.
  const sqliteShaped = { db, tables: pgSchema } as unknown as { db: Db; tables: Tables };
  return portableRepositories(sqliteShaped.db, sqliteShaped.tables, transaction, postgresDialect(db, facts));
}

// Repositories written once for both dialects use drizzle's query builders, awaited,
// and nothing else: no prepared statements, no .get()/.run(), counts of changed rows
// through RETURNING. They are typed against the SQLite database and tables; on
// PostgreSQL the same code runs over the PostgreSQL database and the tables derived
// from the same schema source (src/db/pg/schema.ts), whose values read back as the
// same JS types.
import * as schema from "../schema/index.js";

export type Tables = typeof schema;
export const sqliteTables: Tables = schema;

/** The first row of a result, or null. */
export const first = <T>(rows: T[]): T | null => rows[0] ?? null;

/**
 * Runs `fn` in one transaction, joining the caller's if there is one: given to the
 * portable repositories whose writes must land together.
 */
export type Transaction = <T>(fn: () => Promise<T>) => Promise<T>;

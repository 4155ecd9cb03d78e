// The columns most tables share, built one way: an opaque text id and times in
// integer milliseconds since the epoch.
import { sql, type Column, type SQL } from "drizzle-orm";
import { integer, text } from "drizzle-orm/sqlite-core";

export const idColumn = () => text("id").primaryKey();
export const createdAtColumn = () => integer("created_at").notNull();
export const updatedAtColumn = () => integer("updated_at").notNull();

const nocaseOf = new WeakMap<SQL, Column>();

/**
 * A column compared without regard to case, for an index: COLLATE NOCASE here; the
 * PostgreSQL schema (src/db/pg/schema.ts) reads it back as lower(column).
 */
export function nocase(column: Column): SQL {
  const expr = sql`${column} COLLATE NOCASE`;
  nocaseOf.set(expr, column);
  return expr;
}

/** The column inside a nocase() expression, or null for any other expression. */
export const nocaseColumn = (expr: SQL): Column | null => nocaseOf.get(expr) ?? null;

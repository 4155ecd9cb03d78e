// The columns most tables share, built one way: an opaque text id and times in
// integer milliseconds since the epoch.
import { integer, text } from "drizzle-orm/sqlite-core";

export const idColumn = () => text("id").primaryKey();
export const createdAtColumn = () => integer("created_at").notNull();
export const updatedAtColumn = () => integer("updated_at").notNull();

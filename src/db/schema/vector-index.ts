// The SQLite vector index's own tables (db/sqlite/passages.ts), beside the passages:
// PostgreSQL has pgvector's index instead, so these are not part of the one schema
// source its tables are derived from (schema/index.ts); drizzle-kit reads both files
// for SQLite's migrations (drizzle.config.ts).
import { blob, index, integer, primaryKey, real, sqliteTable } from "drizzle-orm/sqlite-core";
import { workspaceColumn } from "./accounts.js";
import { passages } from "./processing.js";

/**
 * Which cell of its workspace's vector index each passage (of a size its bits can be
 * kept for) is in: 0 until the workspace's passages are partitioned. The bits
 * themselves are in a sqlite-vec table per size (passage_codes_<dims>), partitioned by
 * workspace and cell; this table says where to find a passage's, and which passages a
 * rebuild has still to move.
 */
export const passageMembers = sqliteTable(
  "passage_members",
  {
    passageId: integer("passage_id")
      .primaryKey()
      .references(() => passages.id, { onDelete: "cascade" }),
    workspaceId: workspaceColumn(),
    dims: integer("dims").notNull(),
    cell: integer("cell").notNull(),
  },
  (t) => [index("passage_members_cell_idx").on(t.workspaceId, t.dims, t.cell)],
);

/** The centroids of a workspace's cells (float32 unit vectors), by generation: a rebuild adds the next. */
export const passageCentroids = sqliteTable(
  "passage_centroids",
  {
    cell: integer("cell").primaryKey(),
    workspaceId: workspaceColumn(),
    dims: integer("dims").notNull(),
    generation: integer("generation").notNull(),
    centroid: blob("centroid", { mode: "buffer" }).notNull(),
  },
  (t) => [index("passage_centroids_workspace_idx").on(t.workspaceId, t.dims, t.generation)],
);

/**
 * The vector index of one workspace's passages of one size: how many there are, and
 * the generation of cells (k-means centroids, in passage_centroids) they are
 * partitioned by, once there are enough of them for that to pay.
 */
export const passageIndexes = sqliteTable(
  "passage_indexes",
  {
    workspaceId: workspaceColumn(),
    dims: integer("dims").notNull(),
    passages: integer("passages").notNull().default(0),
    /** The newest generation of cells; 0 while the passages are not partitioned. */
    generation: integer("generation").notNull().default(0),
    cells: integer("cells").notNull().default(0),
    /** How many passages the newest cells were trained on: a rebuild is due when they have grown well past it. */
    trainedOn: integer("trained_on").notNull().default(0),
    /** Set while a build runs (a build older than its lease may be taken over), with its progress from 0 to 1. */
    buildingSince: integer("building_since"),
    buildProgress: real("build_progress"),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.dims] })],
);

// Copies a single-box installation's SQLite database into an empty PostgreSQL one:
// every table in an order its foreign keys accept, in batches, ids kept (identity
// sequences moved past them), the full-text rows rebuilt and the sqlite-vec vectors
// carried over; then the row counts of both are compared.
import { count, getTableColumns, gt, is, sql } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { PgTable } from "drizzle-orm/pg-core";
import type { OpenedDatabase } from "./open.js";
import type { OpenedPostgres } from "./pg/open.js";
import { pgSchema } from "./pg/schema.js";
import { signBits } from "./pg/passages.js";
import { vectorBytes } from "./pg/vector-bytes.js";
import { reindexNote } from "./pg/search.js";
import * as source from "./schema/index.js";

/** Parents before children, so that every foreign key finds its row. */
const ORDER = [
  "workspaces",
  "users",
  "members",
  "apiKeys",
  "folders",
  "folderMembers",
  "tags",
  "userGroups",
  "groupMembers",
  "invites",
  "inviteGroups",
  "inviteFolders",
  "webhooks",
  "mailSettings",
  "askThreads",
  "calendars",
  "calendarEvents",
  "knowledgeArticles",
  "notes",
  "noteParticipantEmails",
  "transcriptSegments",
  "actionItems",
  "noteVersions",
  "summaryParts",
  "noteFolders",
  "noteShares",
  "oauthClients",
  "oauthRequests",
  "oauthCodes",
  "oauthRefreshTokens",
  "audioUploads",
  "recordings",
  "recordingPieces",
  "jobs",
  "webhookEvents",
  "webhookDeliveries",
  "passages",
  "webSessions",
  "accountTokens",
  "pendingStates",
  "mcpSessions",
  "idempotencyKeys",
  "templates",
  "aiSettings",
  "noteSpeakers",
  "noteVoices",
  "voicePrints",
] as const satisfies readonly (keyof typeof pgSchema)[];

/**
 * Tables left behind on purpose: rate counters are minutes of state, rebuilt by use.
 * Every other table is in ORDER; test/db/copy-tables.test.ts holds the two lists to
 * the schema, so that a new table cannot be forgotten here.
 */
export const NOT_COPIED = ["rateCounters"] as const satisfies readonly (keyof typeof pgSchema)[];
export const COPY_ORDER: readonly string[] = ORDER;

/** Identity columns whose sequences must continue after the copied ids. */
const IDENTITIES: [string, string][] = [
  ["notes", "seq"],
  ["jobs", "id"],
  ["passages", "id"],
];

export interface TableCount {
  table: string;
  source: number;
  target: number;
}

export interface CopyReport {
  tables: TableCount[];
  vectors: { source: number; target: number };
}

/** A schema module's tables by their export names. */
const tablesOf = <T>(module: object, isTable: (v: unknown) => v is T): Record<string, T> =>
  Object.fromEntries(Object.entries(module).filter((entry): entry is [string, T] => isTable(entry[1])));

export class TargetNotEmptyError extends Error {}

export async function copySqliteToPostgres(
  from: OpenedDatabase,
  to: OpenedPostgres,
  onTable?: (table: string, rows: number) => void,
): Promise<CopyReport> {
  const lite = from.db;
  const pg = to.db;
  const [{ n: existing }] = await pg.select({ n: count() }).from(pgSchema.workspaces);
  if (existing > 0)
    throw new TargetNotEmptyError("The PostgreSQL database already holds a workspace: copy into an empty database.");
  // Every table's columns hold the same keys on both sides; rows pass as they are read.
  const sourceTables = tablesOf(source, (v): v is SQLiteTable => is(v, SQLiteTable));
  const targetTables = tablesOf(pgSchema, (v): v is PgTable => is(v, PgTable));

  await pg.transaction(async (tx) => {
    for (const name of ORDER) {
      const from_ = sourceTables[name];
      const to_ = targetTables[name];
      const columns = getTableColumns(from_);
      const width = Object.keys(columns).length;
      const batch = Math.max(1, Math.floor(30_000 / width));
      let last = 0;
      let copied = 0;
      for (;;) {
        // Keyset pagination on SQLite's rowid: constant cost per batch at any size.
        const rows = lite
          .select({ ...columns, _rowid: sql<number>`rowid` })
          .from(from_)
          .where(gt(sql`rowid`, last))
          .orderBy(sql`rowid`)
          .limit(batch)
          .all() as (Record<string, unknown> & { _rowid: number })[];
        if (!rows.length) break;
        last = rows[rows.length - 1]._rowid;
        await tx.insert(to_).values(rows.map(({ _rowid, ...row }) => row));
        copied += rows.length;
      }
      onTable?.(getTableConfig(from_).name, copied);
    }
    for (const [table, column] of IDENTITIES)
      await tx.execute(
        sql.raw(
          `SELECT setval(pg_get_serial_sequence('${table}', '${column}'), coalesce((SELECT max(${column}) FROM ${table}), 0) + 1, false)`,
        ),
      );
    await reindexNote(tx);
  });

  // Vectors: kept whole beside each passage on SQLite (passages.embedding).
  const rows = from.sqlite
    .prepare("SELECT id, workspace_id, model, embedding FROM passages WHERE embedding IS NOT NULL")
    .all() as { id: number; workspace_id: string; model: string; embedding: Buffer }[];
  const sourceVectors = rows.length;
  for (const r of rows) {
    const v = new Float32Array(r.embedding.buffer, r.embedding.byteOffset, r.embedding.byteLength / 4);
    await pg.execute(
      sql`INSERT INTO passage_vectors (passage_id, workspace_id, model, embedding, code)
          VALUES (${r.id}, ${r.workspace_id}, ${r.model}, ${vectorBytes(v)}, ${signBits(v)}::bit varying)`,
    );
  }

  // Each workspace's count of vectors, by which its cells are built when due.
  await pg.execute(
    sql`INSERT INTO passage_indexes (workspace_id, dims, passages)
        SELECT p.workspace_id, p.dims, count(*)::integer FROM passages p JOIN passage_vectors v ON v.passage_id = p.id
        GROUP BY p.workspace_id, p.dims
        ON CONFLICT (workspace_id, dims) DO UPDATE SET passages = excluded.passages`,
  );

  const tables: TableCount[] = [];
  for (const name of ORDER) {
    const [{ n: s }] = lite.select({ n: count() }).from(sourceTables[name]).all() as { n: number }[];
    const [{ n: t }] = await pg.select({ n: count() }).from(targetTables[name]);
    tables.push({ table: getTableConfig(sourceTables[name]).name, source: s, target: t });
  }
  const [{ n: targetVectors }] = (await pg.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM passage_vectors`))
    .rows;
  return { tables, vectors: { source: sourceVectors, target: targetVectors } };
}

// The storage a passage's vector index shares between search and writes (passages.ts)
// and the build that partitions it (passage-index.ts): one bit per dimension in a
// sqlite-vec table per size (passage_codes_<dims>), partitioned by workspace and cell,
// and each workspace's cell centroids, kept in memory while they are current.
import type Database from "better-sqlite3";
import { cellSet, nearestIndex, type CellSet } from "../cells.js";

export function checkDims(dims: number) {
  if (!Number.isInteger(dims) || dims < 1 || dims > 8192) throw new Error(`Unsupported embedding size ${dims}.`);
}

/** Bit vectors come in whole bytes; a size that is not a multiple of 8 is searched exactly. */
export const quantizable = (dims: number) => dims % 8 === 0;

const codesTableName = (dims: number) => `passage_codes_${dims}`;

export const asVector = (b: Buffer) => new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);

function ensureCodesTable(sqlite: Database.Database, dims: number): string {
  checkDims(dims);
  if (!quantizable(dims)) throw new Error(`No bit table for ${dims} dimensions.`);
  const name = codesTableName(dims);
  // Chunks of 256: a cell has a few hundred to a few thousand passages.
  sqlite.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${name} USING vec0(workspace_id text partition key, cell integer partition key, embedding bit[${dims}], chunk_size=256)`,
  );
  // sqlite-vec finds a partition's chunks by scanning its chunk table; with a chunk
  // table thousands of rows long (a partition per cell), an index makes that a lookup.
  // The shadow table's layout is sqlite-vec's: should it change, searches stay right,
  // only slower.
  try {
    sqlite.exec(`CREATE INDEX IF NOT EXISTS ${name}_partitions ON ${name}_chunks (partition00, partition01)`);
  } catch {
    // An older or newer sqlite-vec with another layout.
  }
  return name;
}

/**
 * Brings vectors stored by earlier versions into passages.embedding and
 * passage_codes_<dims>: from the float tables (passage_vectors_<dims>) and the bit
 * tables partitioned by workspace only (passage_bits_<dims>), which are dropped. Run
 * once at open, after the migrations.
 */
export function upgradeVectorTables(sqlite: Database.Database): void {
  const tables = (glob: string, re: RegExp) =>
    (
      sqlite
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB ?")
        .pluck()
        .all(glob) as string[]
    ).filter((n) => re.test(n));
  const fill = (dims: number) => {
    const codes = ensureCodesTable(sqlite, dims);
    sqlite
      .prepare(
        `INSERT INTO ${codes} (rowid, workspace_id, cell, embedding) SELECT id, workspace_id, 0, vec_quantize_binary(embedding) FROM passages WHERE dims = ? AND embedding IS NOT NULL`,
      )
      .run(dims);
    sqlite
      .prepare(
        "INSERT OR IGNORE INTO passage_members (passage_id, workspace_id, dims, cell) SELECT id, workspace_id, dims, 0 FROM passages WHERE dims = ? AND embedding IS NOT NULL",
      )
      .run(dims);
    sqlite
      .prepare(
        "INSERT INTO passage_indexes (workspace_id, dims, passages) SELECT workspace_id, dims, count(*) FROM passage_members WHERE dims = ? GROUP BY workspace_id ON CONFLICT DO UPDATE SET passages = excluded.passages",
      )
      .run(dims);
  };
  for (const name of tables("passage_vectors_[0-9]*", /^passage_vectors_\d+$/)) {
    const dims = Number(name.slice("passage_vectors_".length));
    sqlite.transaction(() => {
      sqlite
        .prepare(
          `UPDATE passages SET embedding = (SELECT v.embedding FROM ${name} v WHERE v.rowid = passages.id) WHERE dims = ? AND embedding IS NULL`,
        )
        .run(dims);
      if (quantizable(dims)) fill(dims);
      sqlite.exec(`DROP TABLE ${name}`);
    })();
  }
  for (const name of tables("passage_bits_[0-9]*", /^passage_bits_\d+$/)) {
    const dims = Number(name.slice("passage_bits_".length));
    sqlite.transaction(() => {
      sqlite.exec(`DROP TABLE ${name}`);
      if (quantizable(dims) && !tables(`${codesTableName(dims)}`, /./).length) fill(dims);
    })();
  }
}

export type PassageCodes = ReturnType<typeof passageCodes>;

/** The code tables and centroids of one connection. */
export function passageCodes(sqlite: Database.Database) {
  const known = new Set<number>();
  /** The code table of a size, made on first use. */
  function codes(dims: number): string {
    if (!known.has(dims)) {
      ensureCodesTable(sqlite, dims);
      known.add(dims);
    }
    return codesTableName(dims);
  }
  /** Prepared once per statement text: the code tables are named by size. */
  const prepared = new Map<string, Database.Statement>();
  const stmt = (sql: string) => {
    let s = prepared.get(sql);
    if (!s) prepared.set(sql, (s = sqlite.prepare(sql)));
    return s;
  };

  /**
   * The centroids of a workspace's generation, kept in memory while it is current
   * (a search compares its query with every one). Looked up by generation, so a new
   * one (built by this process or by `notula admin reindex`) is read afresh.
   */
  const centroidCache = new Map<string, CellSet>();
  function cellsOf(workspaceId: string, dims: number, generation: number): CellSet | null {
    if (generation < 1) return null;
    const key = `${workspaceId}\0${dims}\0${generation}`;
    let set = centroidCache.get(key);
    if (!set) {
      const rows = stmt(
        "SELECT cell, centroid FROM passage_centroids WHERE workspace_id = ? AND dims = ? AND generation = ? ORDER BY cell",
      ).all(workspaceId, dims, generation) as {
        cell: number;
        centroid: Buffer;
      }[];
      if (!rows.length) return null;
      set = cellSet(
        rows.map((r) => r.cell),
        rows.map((r) => Float32Array.from(asVector(r.centroid))),
      );
      for (const k of centroidCache.keys())
        if (k.startsWith(`${workspaceId}\0${dims}\0`) && Number(k.split("\0")[2]) < generation - 1)
          centroidCache.delete(k);
      centroidCache.set(key, set);
    }
    return set;
  }

  /** The cell a vector belongs to in the workspace's newest generation (0 before there is one). */
  function cellFor(workspaceId: string, vector: Float32Array, generation: number): number {
    const set = cellsOf(workspaceId, vector.length, generation);
    return set ? set.ids[nearestIndex(set, vector)] : 0;
  }

  function insertCode(dims: number, id: number, workspaceId: string, cell: number, vector: Float32Array) {
    stmt(
      `INSERT INTO ${codes(dims)} (rowid, workspace_id, cell, embedding) VALUES (?, ?, ?, vec_quantize_binary(?))`,
    ).run(BigInt(id), workspaceId, BigInt(cell), vector);
  }

  function deleteCode(dims: number, id: number) {
    stmt(`DELETE FROM ${codes(dims)} WHERE rowid = ?`).run(BigInt(id));
  }

  return { stmt, codes, cellsOf, cellFor, insertCode, deleteCode };
}

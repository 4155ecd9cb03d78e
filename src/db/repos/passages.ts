// Passages and their vectors on SQLite: a vector index of our own, in the database file.
//
// Each passage keeps its vector whole (passages.embedding) and as one bit per dimension
// in a sqlite-vec table per size (passage_codes_<dims>), partitioned by workspace and
// cell. A search takes candidates by Hamming distance of the bits, then ranks those
// exactly by cosine distance. While a workspace has fewer than `indexAt` passages of a
// size, all are in cell 0 and a search reads them all (a few milliseconds). Past that,
// a build in the background (pipeline/vector-index.ts) trains cells on them (k-means,
// cells.ts), keeps the centroids in passage_centroids and moves each passage to its
// cell; a search then reads only the cells nearest its query. The cells are retrained
// when the passages have grown fourfold; passages written meanwhile go straight to
// their cell. `npm run bench -- search` measures speed and recall against comparing
// every vector.
import type Database from "better-sqlite3";
import type { Db } from "../open.js";
import { cellSet, nearestIndex, topIndexes, type CellSet } from "../cells.js";

export interface PassageInput {
  text: string;
  timestampSec: number | null;
}

export interface PassageHit {
  source: "note" | "article";
  sourceId: string;
  text: string;
  timestampSec: number | null;
  distance: number;
}

/** The passages of one note or article, with their vectors. */
export interface PassageSet {
  source: "note" | "article";
  sourceId: string;
  workspaceId: string;
  items: PassageInput[];
  vectors: Float32Array[];
  model: string;
}

/** A workspace's vector index of one size. */
export interface IndexTarget {
  workspaceId: string;
  dims: number;
}

export interface IndexStatus extends IndexTarget {
  passages: number;
  cells: number;
  generation: number;
  building: boolean;
  progress: number | null;
}

/** Candidates taken by Hamming distance for each result asked for; at least MIN_CANDIDATES. */
export const OVERSAMPLE = 8;
const MIN_CANDIDATES = 200;
/** Passages of one size in a workspace from which they are partitioned into cells. */
export const INDEX_AT = 20_000;
/** Cells are retrained when the passages have grown this many times past what they were trained on. */
const REBUILD_GROWTH = 4;
/**
 * The share of a workspace's cells a search reads (at least MIN_PROBES). Set by the
 * recall it gives against comparing every vector (README, "Search at scale").
 */
export const PROBE_SHARE = 0.15;
const MIN_PROBES = 8;
/**
 * Cells are read nearest first, in groups: the nearest (where a query's neighbours
 * gather), the next two, then the rest. Each group gives only passages closer than the
 * farthest candidate kept so far: sqlite-vec applies that bound before it sorts, and
 * its sort costs (for each passage read) as much as the number of passages asked for,
 * so a tight bound keeps reading a cell cheap. The last group gives at most PER_CELL
 * passages per cell, which bounds its cost when the bound is loose.
 */
const GROUPS = [1, 2];
const PER_CELL = 24;

export const probesFor = (cells: number, share = PROBE_SHARE) => Math.min(cells, Math.max(MIN_PROBES, Math.ceil(cells * share)));
/**
 * Cells whose centroid is this close (in cosine similarity) to the query as the
 * nearest one's are read too, up to half of them (or MAX_PROBES_ALWAYS, where that is
 * more): see topIndexes.
 */
const PROBE_MARGIN = 0.1;
const MAX_PROBE_SHARE = 0.5;
const MAX_PROBES_ALWAYS = 32;
/** About √n cells of about √n passages each. */
export const cellsFor = (passages: number) => Math.min(4096, Math.max(16, Math.round(Math.sqrt(passages))));

function checkDims(dims: number) {
  if (!Number.isInteger(dims) || dims < 1 || dims > 8192) throw new Error(`Unsupported embedding size ${dims}.`);
}

/** Bit vectors come in whole bytes; a size that is not a multiple of 8 is searched exactly. */
const quantizable = (dims: number) => dims % 8 === 0;

const codesTableName = (dims: number) => `passage_codes_${dims}`;

const asVector = (b: Buffer) => new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);

function ensureCodesTable(sqlite: Database.Database, dims: number): string {
  checkDims(dims);
  if (!quantizable(dims)) throw new Error(`No bit table for ${dims} dimensions.`);
  const name = codesTableName(dims);
  // Chunks of 256: a cell has a few hundred to a few thousand passages.
  sqlite.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${name} USING vec0(workspace_id text partition key, cell integer partition key, embedding bit[${dims}], chunk_size=256)`);
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
    (sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB ?").pluck().all(glob) as string[]).filter((n) => re.test(n));
  const fill = (dims: number) => {
    const codes = ensureCodesTable(sqlite, dims);
    sqlite
      .prepare(`INSERT INTO ${codes} (rowid, workspace_id, cell, embedding) SELECT id, workspace_id, 0, vec_quantize_binary(embedding) FROM passages WHERE dims = ? AND embedding IS NOT NULL`)
      .run(dims);
    sqlite.prepare("INSERT OR IGNORE INTO passage_members (passage_id, workspace_id, dims, cell) SELECT id, workspace_id, dims, 0 FROM passages WHERE dims = ? AND embedding IS NOT NULL").run(dims);
    sqlite
      .prepare(
        "INSERT INTO passage_indexes (workspace_id, dims, passages) SELECT workspace_id, dims, count(*) FROM passage_members WHERE dims = ? GROUP BY workspace_id ON CONFLICT DO UPDATE SET passages = excluded.passages",
      )
      .run(dims);
  };
  for (const name of tables("passage_vectors_[0-9]*", /^passage_vectors_\d+$/)) {
    const dims = Number(name.slice("passage_vectors_".length));
    sqlite.transaction(() => {
      sqlite.prepare(`UPDATE passages SET embedding = (SELECT v.embedding FROM ${name} v WHERE v.rowid = passages.id) WHERE dims = ? AND embedding IS NULL`).run(dims);
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

export function passageRepo(db: Db, opts: { indexAt?: number; probeShare?: number; probeMargin?: number } = {}) {
  const sqlite = db.$client;
  const indexAt = opts.indexAt ?? INDEX_AT;
  const known = new Set<number>();
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

  const insertPassage = sqlite.prepare(
    "INSERT INTO passages (workspace_id, source, source_id, position, text, timestamp_sec, model, dims, embedding) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
  );
  const insertMember = sqlite.prepare("INSERT INTO passage_members (passage_id, workspace_id, dims, cell) VALUES (?, ?, ?, ?)");
  const oldOf = sqlite.prepare("SELECT id, workspace_id AS workspaceId, dims FROM passages WHERE source = ? AND source_id = ?");
  const deleteOf = sqlite.prepare("DELETE FROM passages WHERE source = ? AND source_id = ?");
  const modelOf = sqlite.prepare("SELECT model FROM passages WHERE source = ? AND source_id = ? LIMIT 1").pluck();
  const count = sqlite.prepare(
    "INSERT INTO passage_indexes (workspace_id, dims, passages) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET passages = max(0, passages + excluded.passages)",
  );
  const stateOf = sqlite.prepare("SELECT generation, cells FROM passage_indexes WHERE workspace_id = ? AND dims = ?");
  // INDEXED BY: statistics gathered while every passage was in cell 0 would have the
  // planner scan the whole table for a cell 0 that is empty by now.
  const hasUnplaced = sqlite.prepare("SELECT 1 FROM passage_members INDEXED BY passage_members_cell_idx WHERE workspace_id = ? AND dims = ? AND cell = 0 LIMIT 1").pluck();
  const rerank = sqlite.prepare(`
    SELECT source, source_id AS sourceId, text, timestamp_sec AS timestampSec, vec_distance_cosine(embedding, @vector) AS distance
    FROM passages WHERE id IN (SELECT value FROM json_each(@ids)) AND model = @model
    ORDER BY distance LIMIT @k`);
  const exact = sqlite.prepare(`
    SELECT source, source_id AS sourceId, text, timestamp_sec AS timestampSec, vec_distance_cosine(embedding, @vector) AS distance
    FROM passages WHERE workspace_id = @ws AND dims = @dims AND model = @model AND embedding IS NOT NULL
    ORDER BY distance LIMIT @k`);

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
      const rows = stmt("SELECT cell, centroid FROM passage_centroids WHERE workspace_id = ? AND dims = ? AND generation = ? ORDER BY cell").all(workspaceId, dims, generation) as {
        cell: number;
        centroid: Buffer;
      }[];
      if (!rows.length) return null;
      set = cellSet(
        rows.map((r) => r.cell),
        rows.map((r) => Float32Array.from(asVector(r.centroid))),
      );
      for (const k of centroidCache.keys()) if (k.startsWith(`${workspaceId}\0${dims}\0`) && Number(k.split("\0")[2]) < generation - 1) centroidCache.delete(k);
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
    stmt(`INSERT INTO ${codes(dims)} (rowid, workspace_id, cell, embedding) VALUES (?, ?, ?, vec_quantize_binary(?))`).run(BigInt(id), workspaceId, BigInt(cell), vector);
  }

  function remove(source: "note" | "article", sourceId: string) {
    const old = oldOf.all(source, sourceId) as { id: number; workspaceId: string; dims: number }[];
    const removed = new Map<string, { workspaceId: string; dims: number; n: number }>();
    for (const p of old) {
      if (!quantizable(p.dims)) continue;
      stmt(`DELETE FROM ${codes(p.dims)} WHERE rowid = ?`).run(BigInt(p.id));
      const key = `${p.workspaceId}\0${p.dims}`;
      const entry = removed.get(key) ?? { workspaceId: p.workspaceId, dims: p.dims, n: 0 };
      entry.n++;
      removed.set(key, entry);
    }
    // passage_members rows go with their passages (ON DELETE CASCADE).
    deleteOf.run(source, sourceId);
    for (const r of removed.values()) count.run(r.workspaceId, r.dims, -r.n);
  }

  function replace(p: PassageSet) {
    const { source, sourceId, workspaceId, items, vectors, model } = p;
    remove(source, sourceId);
    if (!items.length) return;
    const dims = vectors[0].length;
    checkDims(dims);
    const state = quantizable(dims) ? (stateOf.get(workspaceId, dims) as { generation: number } | undefined) : undefined;
    items.forEach((item, position) => {
      const vector = vectors[position];
      if (vector.length !== dims) throw new Error(`Embedding sizes differ within one ${source}.`);
      const { id } = insertPassage.get(workspaceId, source, sourceId, position, item.text, item.timestampSec, model, dims, vector) as { id: number };
      if (!quantizable(dims)) return;
      // Straight into its cell of the newest generation, once the workspace's passages are partitioned.
      const cell = cellFor(workspaceId, vector, state?.generation ?? 0);
      insertMember.run(id, workspaceId, dims, cell);
      insertCode(dims, id, workspaceId, cell, vector);
    });
    if (quantizable(dims)) count.run(workspaceId, dims, items.length);
  }

  return {
    /** Replaces a note's or article's passages and vectors in one transaction. */
    replace(source: "note" | "article", sourceId: string, workspaceId: string, items: PassageInput[], vectors: Float32Array[], model: string) {
      sqlite.transaction(() => replace({ source, sourceId, workspaceId, items, vectors, model }))();
    },
    /**
     * Replaces the passages of several notes and articles in one transaction: one
     * commit (and one sync to disk) for a batch, for bulk indexing.
     */
    replaceMany(sets: PassageSet[]) {
      sqlite.transaction(() => sets.forEach(replace))();
    },
    remove(source: "note" | "article", sourceId: string) {
      sqlite.transaction(() => remove(source, sourceId))();
    },
    /**
     * The nearest passages of a workspace, from vectors made by `model`: candidates by
     * Hamming distance of the bits, from the cells nearest the query once there are
     * cells, ranked exactly by cosine distance.
     */
    nearest(workspaceId: string, vector: Float32Array, k: number, model: string): PassageHit[] {
      const dims = vector.length;
      if (!quantizable(dims)) return exact.all({ vector, ws: workspaceId, dims, model, k }) as PassageHit[];
      const candidates = Math.max(MIN_CANDIDATES, k * OVERSAMPLE);
      const state = stateOf.get(workspaceId, dims) as { generation: number; cells: number } | undefined;
      const table = codes(dims);
      let rows: { id: number; distance: number }[];
      if (!state?.generation) {
        rows = stmt(`SELECT rowid AS id, distance FROM ${table} WHERE embedding MATCH vec_quantize_binary(?) AND workspace_id = ? AND cell = 0 AND k = ?`).all(
          vector,
          workspaceId,
          candidates,
        ) as typeof rows;
      } else {
        // Cell 0 holds passages not yet moved to a cell; while cells are rebuilt, the
        // previous generation's still hold the passages not yet moved to the new ones.
        const probes = probesFor(state.cells, opts.probeShare);
        const lists: number[][] = [];
        for (const generation of [state.generation, state.generation - 1]) {
          const set = cellsOf(workspaceId, dims, generation);
          if (set) lists.push(topIndexes(set, vector, probes, opts.probeMargin ?? PROBE_MARGIN, Math.max(MAX_PROBES_ALWAYS, Math.ceil(set.ids.length * MAX_PROBE_SHARE))).map((i) => set.ids[i]));
        }
        // The two generations' cells (while cells are rebuilt) interleaved, nearest first.
        const cells: number[] = [];
        for (let i = 0; i < Math.max(0, ...lists.map((l) => l.length)); i++) for (const l of lists) if (i < l.length) cells.push(l[i]);
        // sqlite-vec answers a KNN query for each value of `cell IN`, k from each.
        const scan = stmt(
          `SELECT rowid AS id, distance FROM ${table} WHERE embedding MATCH vec_quantize_binary(?) AND workspace_id = ? AND cell IN (SELECT value FROM json_each(?)) AND k = ? AND distance < ?`,
        );
        rows = [];
        // Cell 0 only while it holds passages (a build under way or cut off).
        const unplaced = hasUnplaced.get(workspaceId, dims) ? [0] : [];
        const groups = [[...unplaced, ...cells.slice(0, GROUPS[0])], cells.slice(GROUPS[0], GROUPS[0] + GROUPS[1]), cells.slice(GROUPS[0] + GROUPS[1])];
        groups.forEach((group, g) => {
          if (!group.length) return;
          // Only what would make the cut: closer than the farthest candidate kept so far.
          const bound = rows.length >= candidates ? rows[candidates - 1].distance : Number.MAX_VALUE;
          rows.push(...(scan.all(vector, workspaceId, JSON.stringify(group), g < groups.length - 1 ? candidates : PER_CELL, bound) as typeof rows));
          rows.sort((a, b) => a.distance - b.distance);
          rows.length = Math.min(rows.length, candidates);
        });
        rows.length = Math.min(rows.length, candidates);
      }
      return rerank.all({ vector, ids: JSON.stringify(rows.map((r) => Number(r.id))), model, k }) as PassageHit[];
    },
    /** The same by comparing every vector: the baseline the benchmark measures recall against. */
    nearestExact(workspaceId: string, vector: Float32Array, k: number, model: string): PassageHit[] {
      return exact.all({ vector, ws: workspaceId, dims: vector.length, model, k }) as PassageHit[];
    },
    modelOf(source: "note" | "article", sourceId: string): string | null {
      return (modelOf.get(source, sourceId) as string | undefined) ?? null;
    },

    // The index build (pipeline/vector-index.ts drives it a page at a time, so requests go on between).

    /**
     * Workspaces (or the one given) whose passages of a size are due to be partitioned,
     * or repartitioned, or whose last build stopped before it had moved every passage.
     */
    buildsDue(workspaceId?: string): IndexTarget[] {
      return stmt(
        `SELECT workspace_id AS workspaceId, dims FROM passage_indexes i
         WHERE ((passages >= ? AND (generation = 0 OR passages >= trained_on * ${REBUILD_GROWTH}))
           OR (generation > 0 AND (EXISTS (SELECT 1 FROM passage_members m INDEXED BY passage_members_cell_idx WHERE m.workspace_id = i.workspace_id AND m.dims = i.dims AND m.cell = 0)
             OR EXISTS (SELECT 1 FROM passage_centroids c WHERE c.workspace_id = i.workspace_id AND c.dims = i.dims AND c.generation < i.generation))))
         ${workspaceId ? " AND workspace_id = ?" : ""}`,
      ).all(indexAt, ...(workspaceId ? [workspaceId] : [])) as IndexTarget[];
    },
    /**
     * A build that stopped (a crash, a restart) after storing its cells but before
     * moving every passage to them: its generation and first cell, to finish it.
     */
    unfinishedBuild(target: IndexTarget): { generation: number; firstCell: number } | null {
      const row = stmt(
        `SELECT i.generation, (SELECT min(cell) FROM passage_centroids c WHERE c.workspace_id = i.workspace_id AND c.dims = i.dims AND c.generation = i.generation) AS firstCell
         FROM passage_indexes i WHERE i.workspace_id = ? AND i.dims = ? AND i.generation > 0
           AND (EXISTS (SELECT 1 FROM passage_members m INDEXED BY passage_members_cell_idx WHERE m.workspace_id = i.workspace_id AND m.dims = i.dims AND m.cell = 0)
             OR EXISTS (SELECT 1 FROM passage_centroids c WHERE c.workspace_id = i.workspace_id AND c.dims = i.dims AND c.generation < i.generation))`,
      ).get(target.workspaceId, target.dims) as { generation: number; firstCell: number | null } | undefined;
      return row?.firstCell ? { generation: row.generation, firstCell: row.firstCell } : null;
    },
    /** Takes a build on, unless another is under way (one not heard from for `leaseMs` is taken over). */
    claimBuild(target: IndexTarget, now: number, leaseMs: number): boolean {
      return (
        stmt("UPDATE passage_indexes SET building_since = ?, build_progress = 0 WHERE workspace_id = ? AND dims = ? AND (building_since IS NULL OR building_since < ?)").run(
          now,
          target.workspaceId,
          target.dims,
          now - leaseMs,
        ).changes === 1
      );
    },
    /** Keeps a build's claim alive and says how far it is. */
    buildProgress(target: IndexTarget, now: number, progress: number) {
      stmt("UPDATE passage_indexes SET building_since = ?, build_progress = ? WHERE workspace_id = ? AND dims = ?").run(now, progress, target.workspaceId, target.dims);
    },
    passageCount(target: IndexTarget): number {
      return (stmt("SELECT passages FROM passage_indexes WHERE workspace_id = ? AND dims = ?").pluck().get(target.workspaceId, target.dims) as number | undefined) ?? 0;
    },
    /** A page of a workspace's passage ids of a size, in (cell, id) order, after the one given. */
    memberIdsAfter(target: IndexTarget, after: { cell: number; passageId: number } | null, limit: number): { cell: number; passageId: number }[] {
      return stmt(
        `SELECT cell, passage_id AS passageId FROM passage_members WHERE workspace_id = ? AND dims = ? AND (cell, passage_id) > (?, ?)
         ORDER BY cell, passage_id LIMIT ?`,
      ).all(target.workspaceId, target.dims, after?.cell ?? -1, after?.passageId ?? -1, limit) as { cell: number; passageId: number }[];
    },
    /** The vectors of some passages, for training. */
    vectorsOf(ids: number[]): Float32Array[] {
      return (stmt("SELECT embedding FROM passages WHERE id IN (SELECT value FROM json_each(?))").pluck().all(JSON.stringify(ids)) as Buffer[]).map((b) =>
        Float32Array.from(asVector(b)),
      );
    },
    /** Stores a new generation of cells; from now on new passages go to them. Returns the generation and its first cell id. */
    installCells(target: IndexTarget, centroids: Float32Array[], trainedOn: number): { generation: number; firstCell: number } {
      return sqlite.transaction(() => {
        const { generation } = stmt("SELECT generation FROM passage_indexes WHERE workspace_id = ? AND dims = ?").get(target.workspaceId, target.dims) as { generation: number };
        // Cell ids only grow: each generation's are above every cell before it.
        const firstCell = (stmt("SELECT coalesce(max(cell), 0) + 1 FROM passage_centroids").pluck().get() as number) ?? 1;
        const insert = stmt("INSERT INTO passage_centroids (cell, workspace_id, dims, generation, centroid) VALUES (?, ?, ?, ?, ?)");
        centroids.forEach((c, i) => insert.run(firstCell + i, target.workspaceId, target.dims, generation + 1, Buffer.from(c.buffer, c.byteOffset, c.byteLength)));
        stmt("UPDATE passage_indexes SET generation = ?, cells = ?, trained_on = ? WHERE workspace_id = ? AND dims = ?").run(
          generation + 1,
          centroids.length,
          trainedOn,
          target.workspaceId,
          target.dims,
        );
        return { generation: generation + 1, firstCell };
      })();
    },
    /**
     * Moves up to `limit` passages not yet in a cell of `generation` (their cell id is
     * below its first) to their nearest cell of it. Returns how many moved: 0 when done.
     */
    moveToCells(target: IndexTarget, generation: number, firstCell: number, limit: number): number {
      const { workspaceId, dims } = target;
      return sqlite.transaction(() => {
        const rows = stmt(
          `SELECT m.passage_id AS id, p.embedding FROM passage_members m INDEXED BY passage_members_cell_idx JOIN passages p ON p.id = m.passage_id
           WHERE m.workspace_id = ? AND m.dims = ? AND m.cell < ? LIMIT ?`,
        ).all(workspaceId, dims, firstCell, limit) as { id: number; embedding: Buffer }[];
        const setMember = stmt("UPDATE passage_members SET cell = ? WHERE passage_id = ?");
        const deleteCode = stmt(`DELETE FROM ${codes(dims)} WHERE rowid = ?`);
        for (const r of rows) {
          const vector = asVector(r.embedding);
          const cell = cellFor(workspaceId, vector, generation);
          setMember.run(cell, r.id);
          deleteCode.run(BigInt(r.id));
          insertCode(dims, r.id, workspaceId, cell, vector);
        }
        return rows.length;
      })();
    },
    /** Ends a build: the generations before this one are dropped, and the claim released. */
    finishBuild(target: IndexTarget, generation: number) {
      sqlite.transaction(() => {
        stmt("DELETE FROM passage_centroids WHERE workspace_id = ? AND dims = ? AND generation < ?").run(target.workspaceId, target.dims, generation);
        stmt("UPDATE passage_indexes SET building_since = NULL, build_progress = NULL WHERE workspace_id = ? AND dims = ?").run(target.workspaceId, target.dims);
      })();
      // The build changed where the code table's chunks are (every passage moved out of
      // cell 0): statistics gathered before would have the planner scan all of them
      // for cell 0. A few thousand rows: quick.
      sqlite.exec(`ANALYZE ${codes(target.dims)}_chunks`);
    },
    /** Gives a build's claim back (after a failure), so that it may be tried again. */
    releaseBuild(target: IndexTarget) {
      stmt("UPDATE passage_indexes SET building_since = NULL, build_progress = NULL WHERE workspace_id = ? AND dims = ?").run(target.workspaceId, target.dims);
    },
    /** Every workspace's index, largest first, for `notula admin reindex`. */
    indexStatus(): IndexStatus[] {
      return (
        stmt(
          "SELECT workspace_id AS workspaceId, dims, passages, cells, generation, building_since IS NOT NULL AS building, build_progress AS progress FROM passage_indexes ORDER BY passages DESC",
        ).all() as (Omit<IndexStatus, "building"> & { building: number })[]
      ).map((r) => ({ ...r, building: Boolean(r.building) }));
    },
  };
}

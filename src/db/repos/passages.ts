// Passages and their vectors on SQLite. Each passage keeps its vector whole
// (passages.embedding) and as one bit per dimension in a sqlite-vec table per size
// (passage_bits_<dims>, partitioned by workspace). A search scans the bits by Hamming
// distance for a few hundred candidates, then ranks those exactly by cosine distance:
// about ten times less work than comparing every vector, with the exact order among
// the candidates (`npm run bench -- search` measures both, and the recall).
import type Database from "better-sqlite3";
import type { Db } from "../open.js";

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

/** Candidates taken from the bit scan for each result asked for; at least MIN_CANDIDATES. */
export const OVERSAMPLE = 4;
const MIN_CANDIDATES = 100;

function checkDims(dims: number) {
  if (!Number.isInteger(dims) || dims < 1 || dims > 8192) throw new Error(`Unsupported embedding size ${dims}.`);
}

/** Bit vectors come in whole bytes; a size that is not a multiple of 8 is searched exactly. */
const quantizable = (dims: number) => dims % 8 === 0;

const bitsTableName = (dims: number) => `passage_bits_${dims}`;

function ensureBitsTable(sqlite: Database.Database, dims: number): string {
  checkDims(dims);
  if (!quantizable(dims)) throw new Error(`No bit table for ${dims} dimensions.`);
  const name = bitsTableName(dims);
  sqlite.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${name} USING vec0(workspace_id text partition key, embedding bit[${dims}])`);
  return name;
}

/**
 * Moves vectors from the float tables of earlier versions (passage_vectors_<dims>)
 * into passages.embedding and the bit tables, then drops them. Run once at open.
 */
export function moveLegacyVectors(sqlite: Database.Database): void {
  const legacy = (sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'passage_vectors_[0-9]*'").pluck().all() as string[]).filter((n) =>
    /^passage_vectors_\d+$/.test(n),
  );
  for (const name of legacy) {
    const dims = Number(name.slice("passage_vectors_".length));
    sqlite.transaction(() => {
      sqlite.prepare(`UPDATE passages SET embedding = (SELECT v.embedding FROM ${name} v WHERE v.rowid = passages.id) WHERE dims = ? AND embedding IS NULL`).run(dims);
      if (quantizable(dims)) {
        const bits = ensureBitsTable(sqlite, dims);
        sqlite
          .prepare(`INSERT INTO ${bits}(rowid, workspace_id, embedding) SELECT id, workspace_id, vec_quantize_binary(embedding) FROM passages WHERE dims = ? AND embedding IS NOT NULL`)
          .run(dims);
      }
      sqlite.exec(`DROP TABLE ${name}`);
    })();
  }
}

export function passageRepo(db: Db) {
  const sqlite = db.$client;
  const known = new Set<number>();
  function bitsTable(dims: number): string {
    if (!known.has(dims)) {
      ensureBitsTable(sqlite, dims);
      known.add(dims);
    }
    return bitsTableName(dims);
  }
  const insertPassage = sqlite.prepare(
    "INSERT INTO passages (workspace_id, source, source_id, position, text, timestamp_sec, model, dims, embedding) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
  );
  const oldOf = sqlite.prepare("SELECT id, dims FROM passages WHERE source = ? AND source_id = ?");
  const deleteOf = sqlite.prepare("DELETE FROM passages WHERE source = ? AND source_id = ?");
  const modelOf = sqlite.prepare("SELECT model FROM passages WHERE source = ? AND source_id = ? LIMIT 1").pluck();
  const rerank = sqlite.prepare(`
    SELECT source, source_id AS sourceId, text, timestamp_sec AS timestampSec, vec_distance_cosine(embedding, @vector) AS distance
    FROM passages WHERE id IN (SELECT value FROM json_each(@ids)) AND model = @model
    ORDER BY distance LIMIT @k`);
  const exact = sqlite.prepare(`
    SELECT source, source_id AS sourceId, text, timestamp_sec AS timestampSec, vec_distance_cosine(embedding, @vector) AS distance
    FROM passages WHERE workspace_id = @ws AND dims = @dims AND model = @model AND embedding IS NOT NULL
    ORDER BY distance LIMIT @k`);

  function remove(source: "note" | "article", sourceId: string) {
    for (const p of oldOf.all(source, sourceId) as { id: number; dims: number }[])
      if (quantizable(p.dims)) sqlite.prepare(`DELETE FROM ${bitsTable(p.dims)} WHERE rowid = ?`).run(BigInt(p.id));
    deleteOf.run(source, sourceId);
  }

  return {
    /** Replaces a note's or article's passages and vectors in one transaction. */
    replace(source: "note" | "article", sourceId: string, workspaceId: string, items: PassageInput[], vectors: Float32Array[], model: string) {
      sqlite.transaction(() => {
        remove(source, sourceId);
        if (!items.length) return;
        const dims = vectors[0].length;
        checkDims(dims);
        const insertBits = quantizable(dims) ? sqlite.prepare(`INSERT INTO ${bitsTable(dims)}(rowid, workspace_id, embedding) VALUES (?, ?, vec_quantize_binary(?))`) : null;
        items.forEach((item, position) => {
          const vector = vectors[position];
          const { id } = insertPassage.get(workspaceId, source, sourceId, position, item.text, item.timestampSec, model, vector.length, vector) as { id: number };
          insertBits?.run(BigInt(id), workspaceId, vector);
        });
      })();
    },
    remove(source: "note" | "article", sourceId: string) {
      sqlite.transaction(() => remove(source, sourceId))();
    },
    /**
     * The nearest passages of a workspace, from vectors made by `model`: candidates by
     * Hamming distance of the bits, ranked exactly by cosine distance.
     */
    nearest(workspaceId: string, vector: Float32Array, k: number, model: string): PassageHit[] {
      if (!quantizable(vector.length)) return exact.all({ vector, ws: workspaceId, dims: vector.length, model, k }) as PassageHit[];
      const candidates = Math.max(MIN_CANDIDATES, k * OVERSAMPLE);
      const ids = sqlite
        .prepare(`SELECT rowid FROM ${bitsTable(vector.length)} WHERE embedding MATCH vec_quantize_binary(?) AND workspace_id = ? AND k = ?`)
        .pluck()
        .all(vector, workspaceId, candidates) as number[];
      return rerank.all({ vector, ids: JSON.stringify(ids), model, k }) as PassageHit[];
    },
    /** The same by comparing every vector: the baseline the benchmark measures recall against. */
    nearestExact(workspaceId: string, vector: Float32Array, k: number, model: string): PassageHit[] {
      return exact.all({ vector, ws: workspaceId, dims: vector.length, model, k }) as PassageHit[];
    },
    modelOf(source: "note" | "article", sourceId: string): string | null {
      return (modelOf.get(source, sourceId) as string | undefined) ?? null;
    },
  };
}

// The passage store: the passages of notes and articles with their vectors, and the
// nearest ones to a query (sqlite/passages.ts on SQLite with its own vector cells,
// pg/passages.ts on PostgreSQL with pgvector's HNSW index where the extension exists).

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

export interface PassageStore {
  /** Replaces one note's or article's passages and vectors (a vector per passage, all of one size). */
  replace(
    source: "note" | "article",
    sourceId: string,
    workspaceId: string,
    items: PassageInput[],
    vectors: Float32Array[],
    model: string,
  ): Promise<void>;
  /** Replaces several sets in one transaction (bulk reindexing). */
  replaceMany(sets: PassageSet[]): Promise<void>;
  remove(source: "note" | "article", sourceId: string): Promise<void>;
  /** The k passages of the workspace nearest the vector (cosine distance), among those embedded by `model`. */
  nearest(workspaceId: string, vector: Float32Array, k: number, model: string): Promise<PassageHit[]>;
  /** The same, comparing every vector: the reference recall is measured against. */
  nearestExact(workspaceId: string, vector: Float32Array, k: number, model: string): Promise<PassageHit[]>;
  /** Which model embedded a note's or article's passages, if any. */
  modelOf(source: "note" | "article", sourceId: string): Promise<string | null>;
}

// Sentence embeddings behind one interface; one file per engine.
export interface EmbedOptions {
  background?: boolean;
}

export interface Embedder {
  /** e.g. "use-lite" or "openai:text-embedding-3-small"; stored with every vector. */
  readonly name: string;
  readonly dimensions: number;
  /**
   * The cosine similarity below which a passage is not related to a query: calibrated
   * per model (bench/search-eval.mjs), since each spreads its similarities differently.
   */
  readonly minSimilarity: number;
  /**
   * Unit vectors of the texts, in order. `background` says no one is waiting on this
   * answer (indexing, summarizing): a model that runs here then yields to the requests.
   */
  embed(texts: string[], opts?: EmbedOptions): Promise<Float32Array[]>;
}

export function normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return v.map((x) => x / n);
}

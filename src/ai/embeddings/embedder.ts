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

/**
 * `embedder`, remembering the vectors of the last `size` distinct texts it embedded. The
 * summary without a model embeds its template's sections for every meeting, and a
 * note reprocessed or renamed is indexed again with mostly the same passages: those
 * are answered from memory (about 2 KB a text at 512 dimensions) instead of the model
 * or a paid API.
 */
export function withVectorCache(embedder: Embedder, size = 2_000): Embedder {
  const kept = new Map<string, Float32Array>();
  const keep = (text: string, v: Float32Array) => {
    kept.delete(text);
    kept.set(text, v);
    if (kept.size > size) kept.delete(kept.keys().next().value!);
  };
  return {
    name: embedder.name,
    dimensions: embedder.dimensions,
    minSimilarity: embedder.minSimilarity,
    async embed(texts, opts) {
      // Taken before waiting on the model, so that nothing the cache drops meanwhile is missed.
      const hits = texts.map((t) => kept.get(t));
      const missing = [...new Set(texts.filter((_, i) => !hits[i]))];
      const fresh = new Map<string, Float32Array>();
      if (missing.length) (await embedder.embed(missing, opts)).forEach((v, i) => fresh.set(missing[i], v));
      const out = texts.map((t, i) => hits[i] ?? fresh.get(t)!);
      for (const [i, t] of texts.entries()) keep(t, out[i]);
      return out;
    },
  };
}

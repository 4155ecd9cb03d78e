// Embeddings from any OpenAI-compatible /embeddings server (OpenAI, Ollama, LM Studio).
import { EngineConfigError } from "../transcription/engine.js";
import { normalize, type Embedder } from "./embedder.js";
import type { Outbound } from "../../net/outbound.js";

export const OPENAI_MIN_SIMILARITY = 0.3;

export function createOpenAiEmbedder(opts: {
  url: string;
  apiKey?: string;
  model: string;
  dimensions: number;
  minSimilarity?: number;
  /** The embeddings' way out (net/outbound.ts). */
  outbound: Outbound;
}): Embedder {
  const endpoint = `${opts.url.replace(/\/+$/, "")}/embeddings`;
  return {
    name: `openai:${opts.model}`,
    dimensions: opts.dimensions,
    // OpenAI's text-embedding-3 models put unrelated text at about 0.1–0.25 and close
    // paraphrases above 0.4; other servers' models differ: NOTULA_SEARCH_MIN_SIMILARITY.
    minSimilarity: opts.minSimilarity ?? OPENAI_MIN_SIMILARITY,
    async embed(texts) {
      const res = await opts.outbound.fetch(endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: opts.model, input: texts }),
      });
      const text = await res.text();
      if (res.status === 401 || res.status === 403 || res.status === 404)
        throw new EngineConfigError(`The embeddings server refused the request (${res.status}).`);
      if (!res.ok) throw new Error(`The embeddings server answered ${res.status}: ${text.slice(0, 200)}`);
      const data = (JSON.parse(text) as { data: { index: number; embedding: number[] }[] }).data.sort(
        (a, b) => a.index - b.index,
      );
      return data.map((d) => {
        if (d.embedding.length !== opts.dimensions)
          throw new EngineConfigError(
            `The embedding model returns ${d.embedding.length} dimensions, not ${opts.dimensions}; set NOTULA_EMBEDDINGS_DIMENSIONS.`,
          );
        return normalize(Float32Array.from(d.embedding));
      });
    },
  };
}

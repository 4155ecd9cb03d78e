// The product's own search index code, for the benchmarks (bench/search.mjs,
// bench/seed-vectors.mjs): they seed
// and measure with exactly what the server runs, not a copy of its SQL. Not part of the
// CLI; bundled as dist/bench-kit.js.
export { openDatabase } from "./db/open.js";
export { createRepositories } from "./db/repos/index.js";
export { PROBE_SHARE, passageRepo } from "./db/repos/passages.js";
export { INDEX_AT } from "./db/repos/passage-index.js";
export { buildVectorIndex } from "./pipeline/vector-index.js";
export { signBits } from "./db/pg/passages.js";
export { openPostgres } from "./db/pg/open.js";
export { createPgRepositories } from "./db/pg/repos.js";

// The product's own search index code, for the benchmarks (bench/search.mjs,
// bench/seed-vectors.mjs): they seed
// and measure with exactly what the server runs, not a copy of its SQL. Built by
// `npm run bench` into bench/.kit/ (bench/tsup.config.ts); never part of the package.
export { openDatabase } from "../src/db/open.js";
export { createRepositories } from "../src/db/repos/index.js";
export { PROBE_SHARE, passageRepo } from "../src/db/sqlite/passages.js";
export { INDEX_AT, PLACE_AT } from "../src/db/cells.js";
export { buildVectorIndex } from "../src/pipeline/vector-index.js";
export { signBits } from "../src/db/pg/passages.js";
export { openPostgres } from "../src/db/pg/open.js";
export { createPgRepositories } from "../src/db/pg/repos.js";
// The per-layer benchmark (bench/layers.mjs) assembles the app notula serve runs.
export { loadConfig } from "../src/config/load.js";
export { resolveConfig } from "../src/config/resolve.js";
export { assemble } from "../src/server/start.js";
export { createLogger } from "../src/core/logger.js";
export { presentFullNote } from "../src/services/note-presenter.js";
// The speakers benchmark (bench/speakers.mjs): channel attribution as the pipeline runs
// it, on two-source meetings made the way the tests make them.
export { decodeLevels, attributeByChannel, channelProfile } from "../src/ai/channels.js";
export { createSphinxTranscriber, sphinxAvailable } from "../src/ai/transcription/sphinx.js";
export { twoSourceMeeting } from "../test/helpers/two-sources.js";
export { diarizePcm } from "../src/ai/diarization/diarize.js";
// The transcription benchmark (bench/transcription.mjs): windows transcribed as the
// pipeline does it, by each engine, on the model file the tests use.
export { decodeToPcm, planWindows } from "../src/ai/audio.js";
export { transcribeWindows } from "../src/pipeline/transcribe-windows.js";
export { createWhisperHost } from "../src/ai/transcription/whisper-host.js";
export { createWhisperTranscriber } from "../src/ai/transcription/whisper.js";
export { createOpenAiTranscriber } from "../src/ai/transcription/openai.js";
export { createNet } from "../src/net/outbound.js";
export { ensureTestModels, testModelPath } from "../scripts/test-models.js";
// The local language model benchmark (bench/llm.mjs): the local model and the summarizer
// as the server runs them, on the GGUF file the tests use.
export { createLocalLlm } from "../src/ai/llm/local-llama.js";
export { createChatSummarizer } from "../src/ai/summarization/chat-summarizer.js";
export { builtinTemplate, GENERAL_TEMPLATE_ID } from "../src/ai/templates/builtin.js";
export { testModelsDir } from "../scripts/test-models.js";

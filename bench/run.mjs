// npm run bench [rest] [layers] [web] [upload] [pipeline] [recording] [startup] [postgres] [replicas] [search] [search-quality] [search-recall] [summary-quality] [calendar-sync] [speakers] [ask] [transcription] [llm] [import] [ingest] [statements] [load]: every benchmark by default. Each one
// reports its measurements as ratios to a baseline taken in the same run, and what it
// printed is recorded in docs/benchmarks.md with the date, machine and commit.
import { benchPipeline } from "./pipeline.mjs";
import { benchPostgres } from "./postgres.mjs";
import { benchRecording } from "./recording.mjs";
import { benchReplicas } from "./replicas.mjs";
import { benchRest } from "./rest.mjs";
import { benchSearchEval } from "./search-eval.mjs";
import { benchSearch } from "./search.mjs";
import { benchSearchRecall } from "./search-recall.mjs";
import { benchStartup } from "./startup.mjs";
import { benchUpload } from "./upload.mjs";
import { benchWeb } from "./web.mjs";
import { benchLayers } from "./layers.mjs";
import { benchSummaryEval } from "./summary-eval.mjs";
import { benchCalendarSync } from "./calendar-sync.mjs";
import { benchSpeakers } from "./speakers.mjs";
import { benchAsk } from "./ask.mjs";
import { benchTranscription } from "./transcription.mjs";
import { benchLlm } from "./llm.mjs";
import { benchImport } from "./import.mjs";
import { benchIngest } from "./ingest.mjs";
import { benchStatements } from "./statements.mjs";
import { benchLoad } from "./load.mjs";
import { recorded } from "./results.mjs";

const all = {
  rest: benchRest,
  layers: benchLayers,
  web: benchWeb,
  upload: benchUpload,
  pipeline: benchPipeline,
  recording: benchRecording,
  startup: benchStartup,
  postgres: benchPostgres,
  replicas: benchReplicas,
  search: benchSearch,
  "search-quality": benchSearchEval,
  "search-recall": benchSearchRecall,
  "summary-quality": benchSummaryEval,
  "calendar-sync": benchCalendarSync,
  speakers: benchSpeakers,
  ask: benchAsk,
  transcription: benchTranscription,
  llm: benchLlm,
  import: benchImport,
  ingest: benchIngest,
  statements: benchStatements,
  load: benchLoad,
};
// Options (--floors 0.3,0.5) go to the benchmarks that take them; names choose benchmarks.
const args = process.argv.slice(2);
const names = args.filter((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
// rest runs layers too; alone, layers is what its name says.
const chosen = names.length ? names : Object.keys(all).filter((n) => n !== "layers");
for (const name of chosen) {
  if (!all[name]) {
    console.error(`unknown benchmark ${name}; choose from ${Object.keys(all).join(", ")}`);
    process.exit(2);
  }
  await recorded(name, () => all[name]());
}

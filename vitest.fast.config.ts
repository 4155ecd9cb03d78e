// The fast tier (`npm run test:fast`): the files that need no browser, no speech engine
// or model, no PostgreSQL and no terminal, and took at most FAST_SECONDS in the latest
// measured run (test/durations.json), on SQLite. A minute or two on two cores, for the
// loop of a change; `npm test` runs everything, on both databases.
import fs from "node:fs";
import { configDefaults, defineConfig } from "vitest/config";
import base from "./vitest.config.js";
import { measuredDurations } from "./test/helpers/sequencer.js";

const FAST_SECONDS = 12;

/** What a file uses that the fast tier leaves out, by the helpers and flags it names. */
const NEEDS_MORE =
  /helpers\/(browser|firefox|admin-browser|browser-flow|pglite|postgres|tmux)\.js|testModelPath|tiny-gguf|local-llm|speak\(|speakRepeated|--stt-engine|launchChromium/;

const took = measuredDurations();
const testFiles = fs
  .readdirSync("test", { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".test.ts"))
  .map((f) => `test/${f}`);
const fast = testFiles.filter(
  (file) => !NEEDS_MORE.test(fs.readFileSync(file, "utf8")) && (took[`sqlite ${file}`] ?? 0) <= FAST_SECONDS,
);

export default defineConfig({
  test: {
    ...base.test,
    projects: undefined,
    name: "fast",
    include: fast,
    exclude: configDefaults.exclude,
    // Short files, most of their time spent waiting on their server: four at a time.
    poolOptions: { forks: { maxForks: 4, minForks: 1 } },
  },
});

// The whole suite, in one run of two projects, one after the other: "sqlite", every file
// on the embedded database, then "postgres", every file that goes through the stores,
// the job queue or the server's routes, again on PostgreSQL. In each, the longest files
// start first (test/helpers/sequencer.ts). One after the other because the two longest,
// whisper's (sqlite) and the real language model's (postgres), each keep both cores busy:
// side by side they took twice as long each, and the whole run 30 minutes instead of 20.
// `--project sqlite` runs one of them.
import { configDefaults, defineConfig } from "vitest/config";
import { LongestFirst } from "./test/helpers/sequencer.js";

/** Left out on PostgreSQL: files whose work is the same whatever stores the notes. */
const SAME_ON_ANY_DATABASE = [
  // Speech and speaker compute on real models: whisper, pocketsphinx in windows,
  // who spoke on which channel, several voices on one side, hours of audio.
  "test/pipeline/whisper.test.ts",
  "test/pipeline/sphinx-windows.test.ts",
  "test/pipeline/channels.test.ts",
  "test/pipeline/voices.test.ts",
  "test/pipeline/long-audio.test.ts",
  // Audio formats decoded and spoken end to end; sections filled from sentences by the encoder.
  "test/pipeline/audio-e2e.test.ts",
  "test/pipeline/templates-offline.test.ts",
  // The model engines and the prompts they are given, the sentence encoder's thread.
  "test/pipeline/local-llm.test.ts",
  "test/pipeline/templates-llm.test.ts",
  "test/pipeline/model-thread.test.ts",
];

/** The real language model's tests: on PostgreSQL only, where its notes are written (they take minutes). */
const REAL_MODEL = "test/ai/local-llm-real.test.ts";

export default defineConfig({
  test: {
    // Names a test that holds its process's event loop (vitest's own messages time out after 60 s of it).
    setupFiles: ["test/helpers/loop-watch.ts"],
    // Limits for a hung test, not for a slow machine: two suites side by side on two
    // cores took a test past 30 s that takes 5 alone, and each wait inside a test has
    // its own bound on the condition it waits for.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Every test file starts its own server; most of a file's time is spent waiting on
    // it (speech played at its own pace, jobs polled), so two cores run three at a time.
    pool: "forks",
    sequence: { sequencer: LongestFirst },
    poolOptions: { forks: { maxForks: 3, minForks: 1 } },
    projects: [
      {
        extends: true,
        test: {
          name: "sqlite",
          sequence: { groupOrder: 0 },
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, REAL_MODEL],
        },
      },
      {
        extends: true,
        test: {
          name: "postgres",
          sequence: { groupOrder: 1 },
          env: { NOTULA_TEST_BACKEND: "postgres" },
          include: [
            "test/server/**/*.test.ts",
            "test/mcp/**/*.test.ts",
            "test/webhooks/**/*.test.ts",
            "test/oauth/**/*.test.ts",
            "test/pipeline/**/*.test.ts",
            REAL_MODEL,
          ],
          exclude: [...configDefaults.exclude, ...SAME_ON_ANY_DATABASE],
        },
      },
    ],
  },
});

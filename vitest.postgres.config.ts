// The suite's second run, on PostgreSQL (NOTULA_TEST_BACKEND=postgres): every test that
// goes through the stores, the job queue or the server's routes, run again on the other
// database. Left out are the files whose work is the same whatever stores the notes:
// speech, speaker and language-model compute (the first run has them on SQLite, and
// they are most of the suite's time), and files that build their own backends.
import { configDefaults, defineConfig } from "vitest/config";
import base from "./vitest.config.js";

// Spread, not mergeConfig: that joins lists, and these replace the first run's.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      "test/server/**/*.test.ts",
      "test/mcp/**/*.test.ts",
      "test/webhooks/**/*.test.ts",
      "test/oauth/**/*.test.ts",
      "test/pipeline/**/*.test.ts",
      // The real model's tests are here, not in the first run, to share the two runs' time.
      "test/ai/local-llm-real.test.ts",
    ],
    exclude: [
      ...configDefaults.exclude,
      // Speech and speaker compute on real models: whisper, pocketsphinx in windows,
      // who spoke on which channel, several voices on one side, hours of audio.
      "test/pipeline/whisper.test.ts",
      "test/pipeline/sphinx-windows.test.ts",
      "test/pipeline/channels.test.ts",
      "test/pipeline/voices.test.ts",
      "test/pipeline/long-audio.test.ts",
      // The model engines and the prompts they are given, the sentence encoder's thread.
      "test/pipeline/local-llm.test.ts",
      "test/pipeline/templates-llm.test.ts",
      "test/pipeline/model-thread.test.ts",
    ],
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});

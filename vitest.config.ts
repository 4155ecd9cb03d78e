import { defineConfig } from "vitest/config";
import { LongestFirst } from "./test/helpers/sequencer.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Names a test that holds its process's event loop (vitest's own messages time out after 60 s of it).
    setupFiles: ["test/helpers/loop-watch.ts"],
    // Limits for a hung test, not for a slow machine: two suites side by side on two
    // cores took a test past 30 s that takes 5 alone, and each wait inside a test has
    // its own bound on the condition it waits for.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Every test file starts its own server process; two cores run two files at a time.
    pool: "forks",
    sequence: { sequencer: LongestFirst },
    poolOptions: { forks: { maxForks: 3, minForks: 1 } },
  },
});

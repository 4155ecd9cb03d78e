import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Names a test that holds its process's event loop (vitest's own messages time out after 60 s of it).
    setupFiles: ["test/helpers/loop-watch.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Every test file starts its own server process; two cores run two files at a time.
    pool: "forks",
    poolOptions: { forks: { maxForks: 3, minForks: 1 } },
  },
});

import { defineConfig } from "tsup";

// One ESM bundle per entry. Dependencies stay external (installed from npm);
// the CLI entry lazy-loads the server so that client commands start fast.
export default defineConfig({
  entry: { cli: "src/cli/index.ts" },
  format: ["esm"],
  target: "node20",
  platform: "node",
  outDir: "dist",
  splitting: true,
  sourcemap: true,
  clean: true,
  dts: false,
  // Optional: loaded at run time where the keychain module could be built.
  external: ["keytar"],
});

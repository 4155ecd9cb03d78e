import { defineConfig } from "tsup";

// The benchmarks' kit (bench/kit.ts): the product's own database and index code, built
// beside the benchmarks and never into dist/, so the published package holds none of it.
export default defineConfig({
  entry: { kit: "bench/kit.ts" },
  format: ["esm"],
  target: "node20",
  platform: "node",
  outDir: "bench/.kit",
  splitting: true,
  clean: true,
  dts: false,
  external: ["@fugood/whisper.node", "keytar"],
  // The web app the layers benchmark assembles reads its page script beside the code,
  // as the installed program does: the one the main build (run first) made.
  // So do the engines' child programs (whisper, speakers, the embedding thread).
  onSuccess:
    "mkdir -p bench/.kit/assets && cp dist/assets/app.js bench/.kit/assets/app.js && mkdir -p bench/.kit/programs && cp dist/programs/* bench/.kit/programs/",
});

import fs from "node:fs";
import { build } from "esbuild";
import { defineConfig } from "tsup";
import { PAGE_SCRIPT_BUILD } from "./src/web/assets/page-script.js";

// One ESM bundle per entry. Dependencies stay external (installed from npm);
// the CLI entry lazy-loads the server so that client commands start fast. Then the
// web pages' script (src/web/browser) into dist/assets/app.js, which the server reads,
// and the child programs (src/ai/programs) into dist/programs.
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
  onSuccess: async () => {
    await build({ ...PAGE_SCRIPT_BUILD, outfile: "dist/assets/app.js" });
    // The child programs, as the files they are (src/ai/programs/index.ts finds them here).
    fs.mkdirSync("dist/programs", { recursive: true });
    for (const f of fs.readdirSync("src/ai/programs").filter((f) => /\.(cjs|mjs)$/.test(f)))
      fs.copyFileSync(`src/ai/programs/${f}`, `dist/programs/${f}`);
  },
});

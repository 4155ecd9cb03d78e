import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { build } from "esbuild";
import { defineConfig } from "tsup";
import { PAGE_SCRIPT_BUILD } from "./src/web/assets/page-script.js";

// One ESM bundle per entry. Dependencies stay external (installed from npm);
// the CLI entry lazy-loads the server so that client commands start fast, and the
// completion entry loads nothing but the command tree, written here to
// dist/command-tree.json. Then the web pages' script (src/web/browser) into
// dist/assets/app.js, which the server reads, and the child programs (src/ai/programs)
// into dist/programs.
export default defineConfig({
  entry: { cli: "src/cli/index.ts", complete: "src/cli/complete.ts" },
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
    execFileSync(process.execPath, ["--import", "tsx", "scripts/command-tree.ts", "dist/command-tree.json"], {
      stdio: "inherit",
    });
    await build({ ...PAGE_SCRIPT_BUILD, outfile: "dist/assets/app.js" });
    // The child programs, as the files they are (src/ai/programs/index.ts finds them here).
    fs.mkdirSync("dist/programs", { recursive: true });
    for (const f of fs.readdirSync("src/ai/programs").filter((f) => /\.(cjs|mjs)$/.test(f)))
      fs.copyFileSync(`src/ai/programs/${f}`, `dist/programs/${f}`);
  },
});

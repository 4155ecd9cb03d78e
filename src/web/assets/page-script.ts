// The page's script (src/web/browser, TypeScript modules), bundled into one: by the
// build into dist/assets/app.js beside the program (tsup.config.ts), which the
// installed program reads; from the sources by esbuild when running from src (tests,
// development), so that an edit is served without a build.
import fs from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/** How the build bundles it; tsup.config.ts uses the same options. */
export const PAGE_SCRIPT_BUILD: import("esbuild").BuildOptions = {
  entryPoints: ["src/web/browser/main.ts"],
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  legalComments: "none",
};

export function pageScript(): string {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith(".ts")) return fs.readFileSync(new URL("./assets/app.js", import.meta.url), "utf8");
  // Running from the sources: esbuild is there (a development dependency).
  const esbuild = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  const root = fileURLToPath(new URL("../../../", import.meta.url));
  const out = esbuild.buildSync({ ...PAGE_SCRIPT_BUILD, absWorkingDir: root, write: false });
  return out.outputFiles[0].text;
}

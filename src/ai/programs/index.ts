// The child programs notula runs beside the server (whisper.cpp, speaker separation,
// the sentence encoder's thread, the local model's check): real files in this folder,
// type-checked as JavaScript (tsconfig.json here), and copied beside the bundle by the
// build (tsup.config.ts), where the installed program finds them.
import path from "node:path";
import { fileURLToPath } from "node:url";

export type ChildProgram =
  "whisper-child.cjs" | "diarize-child.cjs" | "voices-child.cjs" | "embedding-thread.cjs" | "llm-check.mjs";

/** Where the build puts them, under dist/. */
export const PROGRAMS_DIR = "programs";

/** The program's file: in this folder when running from the sources, in dist/programs when bundled. */
export function programPath(name: ChildProgram): string {
  const here = fileURLToPath(import.meta.url);
  const dir = here.endsWith(".ts") ? path.dirname(here) : path.join(path.dirname(here), PROGRAMS_DIR);
  return path.join(dir, name);
}

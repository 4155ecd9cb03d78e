// Starts the suite's longest files first, so that the forks finish together. Vitest orders
// by the durations in its cache, but a clean checkout has none, and then it orders by file
// size, which put whisper's tests (the longest by far) two thirds of the way through a run.
// The durations are a run's, measured (scripts/test-times.ts writes them).
import fs from "node:fs";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Seconds each file took in a measured run, by "project path" (test/durations.json). */
export function measuredDurations(): Record<string, number> {
  const file = new URL("../durations.json", import.meta.url);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
}

/** The key of a file in test/durations.json: its project's name and its path from the root. */
export const durationKey = (project: string, moduleId: string, root: string) =>
  `${project} ${moduleId.slice(root.length + 1)}`;

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const took = measuredDurations();
    // A file not measured yet counts as a short one; one measured on SQLite only, as that.
    const seconds = (f: TestSpecification) =>
      took[durationKey(f.project.name, f.moduleId, f.project.config.root)] ??
      took[durationKey("sqlite", f.moduleId, f.project.config.root)] ??
      1;
    // A stable sort: files of equal time keep vitest's own order.
    return sorted.sort((a, b) => seconds(b) - seconds(a));
  }
}

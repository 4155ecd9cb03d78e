// Starts the suite's longest files first, so that the forks finish together. Vitest orders
// by the durations in its cache, but a clean checkout has none, and then it orders by file
// size, which put whisper's tests (the longest by far) two thirds of the way through a run.
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Test files by how long they take, longest first (a run's JSON report names them). */
export const LONGEST_FIRST = [
  "test/pipeline/whisper.test.ts",
  "test/cli/client.test.ts",
  "test/web/record.test.ts",
  "test/pipeline/channels.test.ts",
  "test/web/app.test.ts",
  "test/ai/local-llm-real.test.ts",
];

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((name) => f.moduleId.endsWith(name));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    // A stable sort: files not named keep vitest's own order after the named ones.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

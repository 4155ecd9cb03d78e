// A reporter that writes how long each file took, by project, to the file named by
// NOTULA_TEST_TIMES (`npm run test:times` runs the suite with it, then turns it into
// test/durations.json and the table in docs/testing.md).
import fs from "node:fs";
import type { Reporter, TestModule } from "vitest/node";
import { durationKey } from "./sequencer.js";

export default class DurationsReporter implements Reporter {
  private started = Date.now();
  onInit() {
    this.started = Date.now();
  }
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const out = process.env.NOTULA_TEST_TIMES;
    if (!out) return;
    const took: Record<string, { seconds: number; tests: number; passed: boolean }> = {};
    for (const m of modules) {
      const d = m.diagnostic();
      const seconds = (d.collectDuration + d.setupDuration + d.prepareDuration + d.duration) / 1000;
      took[durationKey(m.project.name, m.moduleId, m.project.config.root)] = {
        seconds: Math.round(seconds * 10) / 10,
        tests: [...m.children.allTests()].length,
        passed: m.ok(),
      };
    }
    const wallSeconds = Math.round((Date.now() - this.started) / 1000);
    fs.writeFileSync(out, JSON.stringify({ wallSeconds, files: took }, null, 2) + "\n");
  }
}

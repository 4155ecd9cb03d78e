// Set up in every test process (vitest.config.ts): notes any stretch of more than 10 s
// in which the process's event loop did not turn. vitest's own messages to its workers
// time out after 60 s of that, failing the run with no test named; this names the test
// that held the loop, in test-artifacts/loop-blocks.log and on the console.
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";

const LOG = path.resolve(import.meta.dirname, "../../test-artifacts/loop-blocks.log");
const TICK_MS = 1000;
const REPORT_MS = 10_000;

let last = performance.now();
setInterval(() => {
  const t = performance.now();
  const held = t - last - TICK_MS;
  last = t;
  if (held < REPORT_MS) return;
  const state = expect.getState();
  const line = `${new Date().toISOString()} ${Math.round(held / 1000)} s held in ${state.testPath ?? "?"} › ${state.currentTestName ?? "(outside a test)"}\n`;
  try {
    fs.mkdirSync(path.dirname(LOG), { recursive: true });
    fs.appendFileSync(LOG, line);
  } catch {
    // the note is a help, never a failure
  }
  console.warn(`event loop held: ${line.trim()}`);
}, TICK_MS).unref();

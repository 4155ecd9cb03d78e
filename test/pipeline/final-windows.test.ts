// A stopped recording's final window under way: the pipeline waits for it, and for
// nothing else.
import { describe, expect, it } from "vitest";
import { createFinalWindows } from "../../src/pipeline/final-pass.js";

describe("final windows under way", () => {
  it("are waited for by note until they settle, failed or not; a note with none is not waited for", async () => {
    const windows = createFinalWindows();
    expect(await windows.settled("note_a")).toBe(false);
    let finish!: () => void;
    windows.track("note_a", new Promise<void>((r) => (finish = r)));
    let waited = false;
    const waiting = windows.settled("note_a").then((was) => (waited = was));
    expect(await windows.settled("note_b")).toBe(false);
    await Promise.resolve();
    expect(waited).toBe(false);
    finish();
    await waiting;
    expect(waited).toBe(true);
    expect(await windows.settled("note_a")).toBe(false);
    // A window that fails is over too: the pipeline reads its audio itself.
    windows.track("note_a", Promise.reject(new Error("engine gone")));
    expect(await windows.settled("note_a")).toBe(true);
    expect(await windows.settled("note_a")).toBe(false);
  });
});

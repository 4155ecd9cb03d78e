// Talk time is the time a speaker's segments cover: segments that overlap (engines
// give neighbours that share a moment) count once, so no speaker talks longer than the
// meeting lasts, whatever the transcript.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coveredSec, speakersOf } from "../../src/services/note-presenter.js";

const segment = (speaker: string, startSec: number, endSec: number) => ({ speaker, text: "…", startSec, endSec });

describe("talk time", () => {
  it("counts overlapping segments once", () => {
    // 0–20 and 19–42 overlap by a second: 42 s, not 43.
    const [sarah] = speakersOf([segment("A", 0, 20), segment("A", 19, 42)], new Map());
    expect(sarah).toMatchObject({ label: "A", talkTimeSec: 42, segments: 2 });
    expect(
      coveredSec([
        [0, 10],
        [2, 3],
        [5, 12],
        [20, 21],
      ]),
    ).toBe(13);
    // A last segment whose end was rounded up past the recording stops where the meeting does.
    expect(speakersOf([segment("A", 0, 6)], new Map(), 5)[0].talkTimeSec).toBe(5);
    expect(coveredSec([])).toBe(0);
  });

  it("never exceeds the meeting, for any transcript", () => {
    const segments = fc.array(
      fc
        .tuple(fc.constantFrom("A", "B", "C"), fc.integer({ min: 0, max: 3600 }), fc.integer({ min: 0, max: 120 }))
        .map(([speaker, start, length]) => segment(speaker, start, start + length)),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(segments, (segs) => {
        const meeting = segs.length
          ? Math.max(...segs.map((s) => s.endSec)) - Math.min(...segs.map((s) => s.startSec))
          : 0;
        for (const sp of speakersOf(segs, new Map())) expect(sp.talkTimeSec).toBeLessThanOrEqual(meeting);
      }),
    );
  });
});

// pocketsphinx heard as a stream (a live recording's drafts): real speech fed as it
// would arrive says each phrase once the speaker pauses, before the stream ends, on the
// recording's own timeline; what is under way when it ends is said at the end.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startSphinxStream } from "../../src/ai/transcription/sphinx-stream.js";
import { speak } from "../helpers/audio.js";
import { tempDir } from "../helpers/server.js";
import { until } from "../helpers/until.js";

const work = tempDir("notula-sphinx-stream-");
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Two sentences with two seconds of quiet between them, as raw 16 kHz samples. */
function twoSentences(): { pcm: Buffer; pauseAt: number } {
  const first = speak(work, "We agreed to launch the product in March.");
  const second = speak(work, "David will send the cost report by Wednesday.", "awb");
  const out = path.join(work, "two.raw");
  execFileSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-i",
    first,
    "-f",
    "lavfi",
    "-t",
    "2",
    "-i",
    "anullsrc=r=16000:cl=mono",
    "-i",
    second,
    "-filter_complex",
    "[0][1][2]concat=n=3:v=0:a=1",
    "-ar",
    "16000",
    "-ac",
    "1",
    "-f",
    "s16le",
    out,
  ]);
  const firstSec = Number(
    execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", first]),
  );
  return { pcm: fs.readFileSync(out), pauseAt: firstSec };
}

describe("pocketsphinx as a stream", () => {
  it("says the first sentence at its pause, while the second is still to come, at its time in the recording", async () => {
    const { pcm, pauseAt } = twoSentences();
    let told = 0;
    const offsetSec = 60;
    const stream = startSphinxStream({ offsetSec, onPhrase: () => told++ });
    try {
      // The first sentence and its pause, as pieces would bring them; nothing more yet.
      const upToPause = Math.floor((pauseAt + 1.5) * 32000) & ~1;
      for (let at = 0; at < upToPause; at += 32000) stream.write(pcm.subarray(at, Math.min(at + 32000, upToPause)));
      const first = await until("the first sentence said", () => (stream.pending ? stream.take() : null), 60_000, 50);
      expect(told).toBeGreaterThan(0);
      const text = first.map((p) => p.text).join(" ");
      expect(text).toMatch(/launch/);
      expect(text).not.toMatch(/wednesday/);
      // On the recording's timeline: the stream began 60 s in.
      expect(first[0].start).toBeGreaterThanOrEqual(offsetSec);
      expect(first[first.length - 1].end).toBeLessThanOrEqual(offsetSec + pauseAt + 0.5);
      expect(stream.heardSec).toBeGreaterThan(offsetSec + pauseAt - 1);
      // The rest, with no pause after it: said when the stream ends.
      stream.write(pcm.subarray(upToPause));
      expect(stream.fedSec).toBeCloseTo(offsetSec + pcm.length / 32000, 3);
      await stream.finish();
      expect(stream.exited).toBe(true);
      const rest = stream.take();
      expect(rest.map((p) => p.text).join(" ")).toMatch(/report/);
      expect(rest[0].start).toBeGreaterThan(offsetSec + pauseAt + 1);
    } finally {
      stream.kill();
    }
  });

  it("once killed, is gone and takes no more audio", async () => {
    const { pcm } = twoSentences();
    const stream = startSphinxStream({ offsetSec: 0 });
    stream.write(pcm);
    stream.kill();
    await until("the recognizer gone", () => stream.exited, 10_000, 20);
    const fed = stream.fedSec;
    stream.write(pcm);
    expect(stream.fedSec).toBe(fed);
  });
});

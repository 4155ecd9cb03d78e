// What `notula record` hands ffmpeg, run by the real ffmpeg: the microphone and the
// system's sound (two inputs at different rates, as a sound server gives them) come out
// as the two channels of one Ogg/Opus stream, with the loudness printed for the meter;
// one source comes out as one channel.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { captureArgs } from "../../src/cli/commands/record/capture.js";
import { tempDir } from "../helpers/server.js";

const run = (args: string[], out: string) => {
  const r = execFileSync(
    "ffmpeg",
    args.map((a) => (a === "pipe:1" ? out : a)),
    {
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  return r;
};
const channels = (file: string) =>
  Number(execFileSync("ffprobe", ["-v", "error", "-show_entries", "stream=channels", "-of", "csv=p=0", file]));

describe("notula record's ffmpeg command", () => {
  it("keeps the microphone and the system's sound apart as two channels", () => {
    const dir = tempDir("notula-capture-");
    const out = path.join(dir, "two.ogg");
    const mic = ["-f", "lavfi", "-i", "sine=f=300:d=2"];
    const call = ["-f", "lavfi", "-i", "sine=f=500:d=2:r=44100"];
    run(captureArgs({ args: [...mic, ...call], inputs: 2 }, true), out);
    expect(channels(out)).toBe(2);
    const one = path.join(dir, "one.ogg");
    run(captureArgs({ args: mic, inputs: 1 }, false), one);
    expect(channels(one)).toBe(1);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

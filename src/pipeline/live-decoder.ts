// A live recording's decoder: one ffmpeg process per recording for as long as it goes
// on, fed its pieces in order and writing 16 kHz mono PCM to a file that the live drafts
// and the final pass read as it grows.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import { SAMPLE_RATE } from "../ai/audio.js";
import { levelMeter, levelStreamArgs, type LevelMeter } from "../ai/channels.js";

export interface Decoder {
  proc: ChildProcessWithoutNullStreams;
  pcm: string;
  /** A two-channel recording's levels as it is decoded, to tell the person from the others. */
  meter: LevelMeter | null;
  /** The highest piece fed, in order. */
  fedSeq: number;
  usedAt: number;
  exited: Promise<void>;
  /** The final pass under way behind the drafts, if any. */
  final: { controller: AbortController; done: Promise<void> } | null;
}

export function startDecoder(pcm: string, sides: boolean): Decoder {
  const proc = spawn(
    "ffmpeg",
    [
      "-nostdin",
      "-v",
      "error",
      "-i",
      "pipe:0",
      "-vn",
      "-ac",
      "1",
      "-ar",
      String(SAMPLE_RATE),
      "-flush_packets",
      "1",
      "-f",
      "s16le",
      "pipe:1",
      // The channels' levels beside the mono audio, on a fourth pipe.
      ...(sides ? ["-flush_packets", "1", ...levelStreamArgs("pipe:3")] : []),
    ],
    { stdio: ["pipe", "pipe", "pipe", sides ? "pipe" : "ignore"] },
  ) as ChildProcessWithoutNullStreams;
  const meter = sides ? levelMeter() : null;
  if (meter) (proc.stdio[3] as NodeJS.ReadableStream).on("data", (c: Buffer) => meter.push(c));
  const out = fs.createWriteStream(pcm);
  proc.stdout.pipe(out);
  proc.stdin.on("error", () => {}); // a decoder that died is replaced on the next pass
  const exited = new Promise<void>((resolve) => proc.on("close", () => resolve()));
  return { proc, pcm, meter, fedSeq: -1, usedAt: 0, exited, final: null };
}

/** Waits until the decoder's output stops growing (it has caught up with what it was fed), at most `maxMs`. */
export async function settled(pcm: string, maxMs = 3000): Promise<number> {
  let last = -1;
  // Elapsed time of a child process, not a rule of the service: measured on the monotonic clock.
  const until = performance.now() + maxMs;
  for (;;) {
    const size = (await fsp.stat(pcm).catch(() => ({ size: 0 }))).size;
    if (size === last || performance.now() > until) return size;
    last = size;
    await new Promise((r) => setTimeout(r, 250));
  }
}

// A live recording's decoder: one ffmpeg process per recording for as long as it goes
// on, fed its pieces in order and writing 16 kHz mono PCM to a file that the live drafts
// and the final pass read as it grows.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import { SAMPLE_RATE } from "../ai/audio.js";
import { levelMeter, levelStreamArgs, type LevelMeter } from "../ai/channels.js";
import type { SpeechStream } from "../ai/transcription/engine.js";

export interface Decoder {
  proc: ChildProcessWithoutNullStreams;
  pcm: string;
  /** A two-channel recording's levels as it is decoded, to tell the person from the others. */
  meter: LevelMeter | null;
  /** The highest piece fed, in order. */
  fedSeq: number;
  /** How much of its output (bytes of PCM) the last pass read. */
  readBytes: number;
  /** The last pass left complete windows for the next. */
  behind: boolean;
  usedAt: number;
  exited: Promise<void>;
  /** The final pass under way behind the drafts, if any. */
  final: { controller: AbortController; done: Promise<void> } | null;
  /** The engine's recognizer fed this recording as it comes, where it drafts so. */
  stream: SpeechStream | null;
  /** How much of the decoder's output (bytes of PCM) the stream has been fed. */
  streamBytes: number;
  /** Where the stream's audio ended at the last pass. */
  streamSeenSec: number;
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
  return {
    proc,
    pcm,
    meter,
    fedSeq: -1,
    readBytes: 0,
    behind: false,
    exited,
    usedAt: 0,
    final: null,
    stream: null,
    streamBytes: 0,
    streamSeenSec: 0,
  };
}

/** The decoder's output so far, in bytes of PCM. */
export async function decodedBytes(decoder: Decoder): Promise<number> {
  return (await fsp.stat(decoder.pcm).catch(() => ({ size: 0 }))).size;
}

/**
 * Waits until the decoder has turned what it was fed into audio: its output has grown
 * past `from` bytes and then stopped growing, or it has exited, or `maxMs` have passed.
 * Stopping at the first still moment alone read nothing when ffmpeg was slow to start
 * on a busy machine, and that audio then waited for the recording's next piece.
 */
export async function settled(decoder: Decoder, from: number, maxMs = 10_000): Promise<number> {
  let last = -1;
  // Elapsed time of a child process, not a rule of the service: measured on the monotonic clock.
  const until = performance.now() + maxMs;
  for (;;) {
    const size = await decodedBytes(decoder);
    const still = size === last && size > from;
    if (still || decoder.proc.exitCode !== null || performance.now() > until) return size;
    last = size;
    // A piece of a few seconds decodes in milliseconds: a tenth of a second still is done.
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Bytes [from, to) of a PCM file. */
export async function readPcm(file: string, from: number, to: number): Promise<Buffer> {
  const handle = await fsp.open(file, "r");
  try {
    const buf = Buffer.alloc(to - from);
    const { bytesRead } = await handle.read(buf, 0, buf.length, from);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

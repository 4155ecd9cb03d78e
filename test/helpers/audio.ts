// Real audio for tests: speech from flite (or a tone when no synthesizer is given),
// converted by ffmpeg into each of the four upload formats.
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import path from "node:path";

export const FORMATS = { wav: "audio/wav", mp3: "audio/mpeg", m4a: "audio/mp4", aac: "audio/aac" } as const;
export type Format = keyof typeof FORMATS;

const ENCODE: Record<Format, string[]> = {
  wav: ["-c:a", "pcm_s16le"],
  mp3: ["-c:a", "libmp3lame", "-b:a", "64k"],
  m4a: ["-c:a", "aac", "-b:a", "64k"],
  aac: ["-c:a", "aac", "-b:a", "64k", "-f", "adts"],
};

/** Speaks `text` with flite into a 16 kHz WAV file. */
export function speak(dir: string, text: string, voice = "slt"): string {
  const out = path.join(dir, `speech-${Math.random().toString(36).slice(2)}.wav`);
  execFileSync("flite", ["-voice", voice, "-t", text, "-o", out]);
  return out;
}

/** `text` spoken `times` over, one take after another, as one WAV file (at `rate` Hz). */
export function speakRepeated(dir: string, text: string, times: number, rate = 16000): string {
  const takes = Array.from({ length: times }, () => speak(dir, text));
  const out = path.join(dir, `speech-x${times}-${Math.random().toString(36).slice(2)}.wav`);
  execFileSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    ...takes.flatMap((t) => ["-i", t]),
    "-filter_complex",
    `concat=n=${times}:v=0:a=1`,
    "-ar",
    String(rate),
    out,
  ]);
  return out;
}

/** A sine tone of `seconds`, for tests where the words do not matter. */
export function tone(dir: string, seconds: number): string {
  const out = path.join(dir, `tone-${seconds}.wav`);
  execFileSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `sine=frequency=440:duration=${seconds}`,
    "-ar",
    "16000",
    "-ac",
    "1",
    out,
  ]);
  return out;
}

export function convert(input: string, format: Format): string {
  const out = input.replace(/\.wav$/, "") + `-encoded.${format}`;
  execFileSync("ffmpeg", ["-v", "error", "-y", "-i", input, ...ENCODE[format], out]);
  return out;
}

export function fileBytes(file: string): Buffer {
  return fs.readFileSync(file);
}

const execFileP = promisify(execFile);

/**
 * `seconds` of tone bursts: 8 s of sound, then 2 s of silence, repeated. Encoded
 * directly, and without blocking: an hour's encoding on a loaded machine can hold the
 * test's process for longer than vitest waits for it to report.
 */
export async function bursts(dir: string, seconds: number, format: Format = "mp3"): Promise<string> {
  const out = path.join(dir, `bursts-${seconds}.${format}`);
  // One 10 s period (8 s of a 440 Hz tone, 2 s of silence; a whole number of cycles,
  // so repeats join seamlessly), looped: evaluating the expression for every sample
  // of an hour takes ten times longer than encoding it.
  const unit = path.join(dir, "bursts-unit.wav");
  await execFileP("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "aevalsrc=0.5*sin(2*PI*440*t)*lt(t\\,8):s=16000:d=10",
    "-ac",
    "1",
    unit,
  ]);
  await execFileP("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-stream_loop",
    String(Math.ceil(seconds / 10) - 1),
    "-i",
    unit,
    "-t",
    String(seconds),
    "-ac",
    "1",
    ...ENCODE[format].map((a) => (a === "64k" ? "32k" : a)),
    out,
  ]);
  return out;
}

/**
 * `size` bytes that start as a WAV file does (RIFF/WAVE), the rest `fill`: for tests of
 * limits and storage, where the sound does not matter but the server checks that an
 * upload is a recording.
 */
export function wavBytes(size: number, fill = 0): Buffer {
  const b = Buffer.alloc(size, fill);
  b.write("RIFF", 0, "latin1");
  b.writeUInt32LE(Math.max(0, size - 8), 4);
  b.write("WAVE", 8, "latin1");
  return b;
}

/** The speech as one Ogg/Opus stream (written beside it), and that stream cut into `n` pieces by bytes, as MediaRecorder's timeslices are. */
export function oggPieces(wav: string, n: number): { pieces: Buffer[]; durationMs: number } {
  const out = path.join(path.dirname(wav), `stream-${n}-${path.basename(wav)}.ogg`);
  execFileSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-i",
    wav,
    "-ac",
    "1",
    "-c:a",
    "libopus",
    "-b:a",
    "24k",
    "-f",
    "ogg",
    out,
  ]);
  const bytes = fs.readFileSync(out);
  const size = Math.ceil(bytes.length / n);
  const pieces = Array.from({ length: n }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
  const seconds = Number(
    execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", wav]).toString(),
  );
  return { pieces, durationMs: Math.round((seconds * 1000) / n) };
}

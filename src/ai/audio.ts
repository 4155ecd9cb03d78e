// Decoding and splitting of recordings. ffmpeg turns any upload into 16 kHz mono
// 16-bit PCM; long recordings are cut into windows at their quietest moments, so
// that engines see whole phrases and memory stays bounded whatever the length.
import { spawn } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";

export const SAMPLE_RATE = 16_000;
export const BYTES_PER_SECOND = SAMPLE_RATE * 2;
export const FRAME_SEC = 0.1;
const FRAME_BYTES = BYTES_PER_SECOND * FRAME_SEC;

export class MissingProgramError extends Error {}
/** The file is not audio ffmpeg can read: trying again will not help. */
export class UndecodableAudioError extends Error {}

/**
 * Decodes any audio file to a headerless 16 kHz mono s16le PCM file, from `fromSec`
 * on (0: the start) for at most `maxSec`: its channels mixed, or one of them (0 or 1).
 * Returns the duration decoded, in seconds.
 */
export async function decodeToPcm(
  input: string,
  output: string,
  o: { signal?: AbortSignal; fromSec?: number; maxSec?: number; channel?: 0 | 1 } = {},
): Promise<number> {
  const fromSec = o.fromSec ?? 0;
  await ffmpeg(
    [
      // Before the input: ffmpeg seeks in the file rather than decoding up to there.
      ...(fromSec > 0 ? ["-ss", fromSec.toFixed(3)] : []),
      "-i",
      input,
      // At most this much: a small file of many hours of silence must not fill the disk.
      ...(o.maxSec !== undefined ? ["-t", o.maxSec.toFixed(3)] : []),
      "-vn",
      ...(o.channel === undefined ? ["-ac", "1"] : ["-af", `pan=mono|c0=c${o.channel}`]),
      "-ar",
      String(SAMPLE_RATE),
      "-f",
      "s16le",
      output,
    ],
    "process recordings",
    o.signal,
  );
  const { size } = await fsp.stat(output);
  // Past a point, there may be nothing left (a recording transcribed to its end while it went on).
  if (size < FRAME_BYTES && fromSec === 0) throw new UndecodableAudioError("The recording holds no audio.");
  return size / BYTES_PER_SECOND;
}

/** Runs ffmpeg quietly; a missing ffmpeg and a file it cannot read are errors of their own. */
function ffmpeg(args: string[], purpose: string, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn("ffmpeg", ["-nostdin", "-v", "error", "-y", ...args], {
      stdio: ["ignore", "ignore", "pipe"],
      signal,
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-2000)));
    child.on("error", (err: NodeJS.ErrnoException) =>
      reject(
        err.code === "ENOENT"
          ? new MissingProgramError(
              `ffmpeg was not found on PATH; install it (Debian: apt-get install ffmpeg) to ${purpose}.`,
            )
          : err,
      ),
    );
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(
            new UndecodableAudioError(`ffmpeg could not decode the recording: ${stderr.trim() || `exit ${code}`}`),
          ),
    );
  });
}

/** The containers a browser's MediaRecorder writes as a stream, without a length or an index. */
export const STREAMED_CONTAINERS = ["webm", "mp4"] as const;

/**
 * Copies a recording written as a stream (MediaRecorder's WebM or fragmented MP4) into
 * the same container with its duration and a seek index (WebM cues, an MP4 moov at the
 * front), without re-encoding: players can then show its length and seek in it.
 */
export async function remuxSeekable(
  input: string,
  output: string,
  container: (typeof STREAMED_CONTAINERS)[number],
): Promise<void> {
  await ffmpeg(
    [
      "-i",
      input,
      "-map",
      "0",
      "-c",
      "copy",
      ...(container === "mp4" ? ["-movflags", "+faststart", "-f", "mp4"] : ["-f", "webm", "-cues_to_front", "1"]),
      output,
    ],
    "make recordings seekable",
  );
}

export interface Window {
  startSec: number;
  endSec: number;
}

/**
 * Plans windows of about `targetSec`, each cut at the quietest 100 ms frame of its
 * last `searchSec` seconds, from `fromSec` (0: the start) to the end of the file.
 * Reads the file from there only, frame by frame.
 */
export async function planWindows(
  pcmFile: string,
  targetSec: number,
  searchSec = Math.min(5, targetSec / 4),
  fromSec = 0,
): Promise<Window[]> {
  const { size } = await fsp.stat(pcmFile);
  const totalFrames = Math.floor(size / FRAME_BYTES);
  const firstFrame = Math.min(totalFrames, Math.round(fromSec / FRAME_SEC));
  const energies = new Float32Array(totalFrames - firstFrame); // 4 hours: 144,000 floats
  const fd = await fsp.open(pcmFile, "r");
  try {
    const buf = Buffer.alloc(FRAME_BYTES * 100);
    let frame = firstFrame;
    for (;;) {
      const { bytesRead } = await fd.read(buf, 0, buf.length, frame * FRAME_BYTES);
      if (bytesRead <= 0) break;
      for (let off = 0; off + FRAME_BYTES <= bytesRead && frame < totalFrames; off += FRAME_BYTES, frame++) {
        let sum = 0;
        for (let i = off; i < off + FRAME_BYTES; i += 2) {
          const v = buf.readInt16LE(i);
          sum += v * v;
        }
        energies[frame - firstFrame] = sum;
      }
      if (frame >= totalFrames) break;
    }
  } finally {
    await fd.close();
  }
  const energy = (f: number) => energies[f - firstFrame];
  const target = Math.round(targetSec / FRAME_SEC);
  const search = Math.max(1, Math.round(searchSec / FRAME_SEC));
  const windows: Window[] = [];
  let start = firstFrame;
  while (start < totalFrames) {
    let end = Math.min(totalFrames, start + target);
    if (end < totalFrames) {
      let best = end;
      for (let f = end; f > end - search && f > start; f--) if (energy(f) < energy(best)) best = f;
      end = best;
    }
    windows.push({ startSec: start * FRAME_SEC, endSec: end * FRAME_SEC });
    start = end;
  }
  return windows;
}

/**
 * Below this, the loudest 100 ms of a window holds no speech: a quiet room is about
 * -60 dBFS, and speech at a laptop's microphone -35 to -15. Such a window is not sent to
 * an engine at all, which would spend seconds on it and may write words over it.
 */
export const SILENCE_DBFS = -50;

/** The level of each 100 ms frame of a window of the PCM file, in dBFS (-Infinity for digital silence). */
export async function frameLevels(pcmFile: string, w: Window): Promise<Float32Array> {
  const start = Math.round(w.startSec * BYTES_PER_SECOND) & ~1;
  const end = Math.round(w.endSec * BYTES_PER_SECOND) & ~1;
  const levels = new Float32Array(Math.max(0, Math.ceil((end - start) / FRAME_BYTES)));
  const fd = await fsp.open(pcmFile, "r");
  try {
    const buf = Buffer.alloc(FRAME_BYTES * 50);
    for (let at = start, frame = 0; at < end;) {
      const { bytesRead } = await fd.read(buf, 0, Math.min(buf.length, end - at), at);
      if (bytesRead <= 0) break;
      for (let off = 0; off + 2 <= bytesRead; off += FRAME_BYTES, frame++) {
        const stop = Math.min(bytesRead, off + FRAME_BYTES) & ~1;
        let sum = 0;
        for (let i = off; i < stop; i += 2) sum += buf.readInt16LE(i) ** 2;
        levels[frame] = 10 * Math.log10(sum / ((stop - off) / 2) / 32768 ** 2);
      }
      at += bytesRead;
    }
    return levels;
  } finally {
    await fd.close();
  }
}

/** Whether a 100 ms frame at this level may hold speech. */
export const voiced = (db: number) => db >= SILENCE_DBFS;

/** Writes one window of the PCM file as a WAV file (what every engine accepts). */
export async function writeWindowWav(pcmFile: string, w: Window, out: string): Promise<void> {
  const start = Math.round(w.startSec * BYTES_PER_SECOND) & ~1;
  const end = Math.round(w.endSec * BYTES_PER_SECOND) & ~1;
  const header = wavHeader(end - start);
  await new Promise<void>((resolve, reject) => {
    const ws = fs.createWriteStream(out);
    ws.on("error", reject);
    ws.write(header);
    const rs = fs.createReadStream(pcmFile, { start, end: end - 1 });
    rs.on("error", reject);
    rs.pipe(ws).on("finish", resolve);
  });
}

export function wavHeader(dataBytes: number): Buffer {
  const h = Buffer.alloc(44);
  h.write("RIFF", 0);
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write("WAVE", 8);
  h.write("fmt ", 12);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(SAMPLE_RATE, 24);
  h.writeUInt32LE(BYTES_PER_SECOND, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write("data", 36);
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

// A meeting recorded from two sources, made from flite's voices with known turns: the
// person recording on channel 0 (their microphone, which also hears the call's sound
// quieter: the bleed), the others on channel 1 (the call). Turns follow one another
// with a pause, or start before the one before has finished (both sides talking).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface Turn {
  side: "me" | "others";
  voice: string;
  text: string;
  /** Start this many seconds before the turn before ends (talking over it). */
  overlapSec?: number;
}

export interface SpokenTurn {
  side: "me" | "others";
  voice: string;
  text: string;
  startSec: number;
  endSec: number;
}

const RATE = 16_000;

/** flite's speech of `text` as 16 kHz samples. */
function voiceSamples(dir: string, text: string, voice: string): Int16Array {
  const wav = path.join(dir, `turn-${Math.random().toString(36).slice(2)}.wav`);
  const raw = `${wav}.raw`;
  execFileSync("flite", ["-voice", voice, "-t", text, "-o", wav]);
  execFileSync("ffmpeg", ["-v", "error", "-y", "-i", wav, "-ac", "1", "-ar", String(RATE), "-f", "s16le", raw]);
  const b = fs.readFileSync(raw);
  fs.rmSync(wav);
  fs.rmSync(raw);
  return new Int16Array(b.buffer, b.byteOffset, b.length / 2);
}

function stereoWav(left: Float32Array, right: Float32Array): Buffer {
  const n = left.length;
  const out = Buffer.alloc(44 + n * 4);
  out.write("RIFF", 0);
  out.writeUInt32LE(36 + n * 4, 4);
  out.write("WAVEfmt ", 8);
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(2, 22);
  out.writeUInt32LE(RATE, 24);
  out.writeUInt32LE(RATE * 4, 28);
  out.writeUInt16LE(4, 32);
  out.writeUInt16LE(16, 34);
  out.write("data", 36);
  out.writeUInt32LE(n * 4, 40);
  const clip = (x: number) => Math.max(-32768, Math.min(32767, Math.round(x)));
  for (let i = 0; i < n; i++) {
    out.writeInt16LE(clip(left[i]), 44 + i * 4);
    out.writeInt16LE(clip(right[i]), 46 + i * 4);
  }
  return out;
}

/**
 * Writes the meeting to `dir` as a stereo WAV file and says who spoke when. `bleedDb`
 * is how loud the call is on the microphone (default -18 dB; null for none); a little
 * noise on both channels gives each a floor, as a real one has.
 */
export function twoSourceMeeting(
  dir: string,
  turns: Turn[],
  o: { bleedDb?: number | null; pauseSec?: number; leadSec?: number; seed?: number } = {},
): { file: string; turns: SpokenTurn[]; durationSec: number } {
  fs.mkdirSync(dir, { recursive: true });
  const pause = Math.round((o.pauseSec ?? 0.7) * RATE);
  const spoken = turns.map((t) => ({ ...t, samples: voiceSamples(dir, t.text, t.voice) }));
  let at = Math.round((o.leadSec ?? 0.5) * RATE);
  const placed: (SpokenTurn & { from: number; samples: Int16Array })[] = [];
  for (const t of spoken) {
    const previous = placed[placed.length - 1];
    const from = previous
      ? t.overlapSec
        ? previous.from + previous.samples.length - Math.round(t.overlapSec * RATE)
        : at
      : at;
    placed.push({
      side: t.side,
      voice: t.voice,
      text: t.text,
      from,
      samples: t.samples,
      startSec: from / RATE,
      endSec: (from + t.samples.length) / RATE,
    });
    at = Math.max(at, from + t.samples.length + pause);
  }
  const n = at + Math.round(0.5 * RATE);
  const mic = new Float32Array(n);
  const call = new Float32Array(n);
  for (const t of placed) {
    const track = t.side === "me" ? mic : call;
    for (let i = 0; i < t.samples.length; i++) track[t.from + i] += t.samples[i];
  }
  const bleed = o.bleedDb === null ? 0 : 10 ** ((o.bleedDb ?? -18) / 20);
  // A deterministic noise floor (about -66 dBFS) on both channels.
  let seed = o.seed ?? 7;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed / 0x7fffffff - 0.5) * 32;
  };
  for (let i = 0; i < n; i++) {
    mic[i] += call[i] * bleed + noise();
    call[i] += noise();
  }
  const file = path.join(dir, `meeting-${Math.random().toString(36).slice(2)}.wav`);
  fs.writeFileSync(file, stereoWav(mic, call));
  return {
    file,
    turns: placed.map(({ side, voice, text, startSec, endSec }) => ({ side, voice, text, startSec, endSec })),
    durationSec: n / RATE,
  };
}

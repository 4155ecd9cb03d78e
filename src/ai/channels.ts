// Who said what, by channel: a recording whose two channels are the person recording
// (channel 0, their microphone) and the others (channel 1, the call's sound) has each
// transcript segment attributed to the side whose channel carries the speech.
//
// ffmpeg decodes the two channels at 8 kHz and only each 20 ms frame's level is kept
// (two numbers, 400 bytes a second: under 6 MB for four hours), with the sums that say
// whether the channels are one signal. From the levels: each channel's noise floor, how
// much of the others' sound the microphone picks up, and for each segment which side
// spoke in it.
// A microphone frame counts as the person's own speech only when it is louder than the
// bleed of the others' sound would make it; a frame where both sides speak counts for
// both, and a segment goes to the side with more speech in it.
import { spawn } from "node:child_process";
import { MissingProgramError, UndecodableAudioError } from "./audio.js";
import { SINGLE_SPEAKER, type TimedWord } from "./transcription/engine.js";

/** What the two channels of a recording are, in order: channel 0 is the person recording. */
export const CHANNEL_ROLES = ["me", "others"] as const;

export const LEVEL_RATE = 8_000;
const FRAME_SAMPLES = 160; // 20 ms at 8 kHz
export const FRAME_SEC = FRAME_SAMPLES / LEVEL_RATE;
const FRAME_BYTES = FRAME_SAMPLES * 2 * 2; // two channels, 16-bit
const SILENT_DB = -100;
/** Nothing quieter than this is speech, whatever the noise floor. */
const MIN_SPEECH_DB = -50;
/** Speech stands this far above a channel's noise floor. */
const ABOVE_FLOOR_DB = 12;
/** The person's own speech is this much louder on their microphone than the others' bleed would make it. */
const OVER_BLEED_DB = 6;

/** ffmpeg's arguments for the stereo 8 kHz stream the levels are read from, written to `output`. */
export const levelStreamArgs = (output: string) => [
  "-vn",
  "-ac",
  "2",
  "-ar",
  String(LEVEL_RATE),
  "-f",
  "s16le",
  output,
];

const toDb = (sumSquares: number) =>
  sumSquares <= 0 ? SILENT_DB : Math.max(SILENT_DB, 10 * Math.log10(sumSquares / FRAME_SAMPLES / (32768 * 32768)));

/** Each 20 ms frame's level per channel, as the stereo stream arrives, and the sums over all of it. */
export function levelMeter() {
  let levels = new Float32Array(2 * 4096);
  let frames = 0;
  let carry: Buffer = Buffer.alloc(0);
  const totals = { ll: 0, rr: 0, lr: 0 };
  return {
    totals,
    get frames() {
      return frames;
    },
    /** The levels (me, others, me, others…) of the frames so far. */
    levels: () => levels.subarray(0, 2 * frames),
    push(chunk: Buffer) {
      const buf: Buffer = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      const whole = buf.length - (buf.length % FRAME_BYTES);
      for (let at = 0; at < whole; at += FRAME_BYTES) {
        let ll = 0;
        let rr = 0;
        let lr = 0;
        for (let i = at; i < at + FRAME_BYTES; i += 4) {
          const l = buf.readInt16LE(i);
          const r = buf.readInt16LE(i + 2);
          ll += l * l;
          rr += r * r;
          lr += l * r;
        }
        totals.ll += ll;
        totals.rr += rr;
        totals.lr += lr;
        if (2 * frames + 2 > levels.length) {
          const grown = new Float32Array(levels.length * 2);
          grown.set(levels);
          levels = grown;
        }
        levels[2 * frames] = toDb(ll);
        levels[2 * frames + 1] = toDb(rr);
        frames++;
      }
      carry = Buffer.from(buf.subarray(whole));
    },
  };
}
export type LevelMeter = ReturnType<typeof levelMeter>;

/** Decodes a recording's first two channels (a mono file gives two equal ones) into their levels. */
export function decodeLevels(input: string, o: { signal?: AbortSignal } = {}): Promise<LevelMeter> {
  const meter = levelMeter();
  return new Promise((resolve, reject) => {
    const child = spawn("ffmpeg", ["-nostdin", "-v", "error", "-i", input, ...levelStreamArgs("pipe:1")], {
      stdio: ["ignore", "pipe", "pipe"],
      signal: o.signal,
    });
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => meter.push(c));
    child.stderr.on("data", (c) => (stderr = (stderr + c).slice(-2000)));
    child.on("error", (err: NodeJS.ErrnoException) =>
      reject(err.code === "ENOENT" ? new MissingProgramError("ffmpeg was not found on PATH.") : err),
    );
    child.on("close", (code) =>
      code === 0
        ? resolve(meter)
        : reject(new UndecodableAudioError(`ffmpeg could not decode the recording: ${stderr.trim()}`)),
    );
  });
}

/** A histogram of levels in whole dB from SILENT_DB to 0, for percentiles in constant memory. */
function histogram() {
  const bins = new Float64Array(-SILENT_DB + 1);
  let n = 0;
  return {
    add(db: number) {
      bins[Math.round(Math.min(0, Math.max(SILENT_DB, db)) - SILENT_DB)]++;
      n++;
    },
    get count() {
      return n;
    },
    percentile(p: number): number {
      if (!n) return SILENT_DB;
      let seen = 0;
      for (let i = 0; i < bins.length; i++) {
        seen += bins[i];
        if (seen >= p * n) return i + SILENT_DB;
      }
      return 0;
    },
  };
}

export interface ChannelProfile {
  /** The two channels carry one signal (a mono recording, or a call mixed into both): attribution says nothing. */
  same: boolean;
  floor: [number, number];
  /** How much quieter the others' sound is on the microphone (dB, ≤ 0). */
  bleedDb: number;
  /** Whether each channel holds any speech at all. */
  speaks: [boolean, boolean];
}

const speechThreshold = (floor: number) => Math.max(floor + ABOVE_FLOOR_DB, MIN_SPEECH_DB);

export function channelProfile(meter: LevelMeter): ChannelProfile {
  const v = meter.levels();
  const me = histogram();
  const others = histogram();
  for (let i = 0; i < v.length; i += 2) {
    me.add(v[i]);
    others.add(v[i + 1]);
  }
  const floor: [number, number] = [me.percentile(0.1), others.percentile(0.1)];
  const [tMe, tOthers] = [speechThreshold(floor[0]), speechThreshold(floor[1])];
  // Where the others speak clearly, the microphone's level relative to theirs is mostly
  // their sound coming back (the person is usually quiet while others talk).
  const bleed = histogram();
  for (let i = 0; i < v.length; i += 2) if (v[i + 1] > tOthers + 6) bleed.add(Math.min(0, v[i] - v[i + 1]));
  const { ll, rr, lr } = meter.totals;
  return {
    // The channels move together at about one level (a far quieter copy on the
    // microphone is the others' sound bleeding in, with the person silent), or hold nothing.
    same: ll === 0 || rr === 0 || (lr / Math.sqrt(ll * rr) > 0.98 && Math.abs(10 * Math.log10(ll / rr)) < 6),
    floor,
    bleedDb: bleed.count ? bleed.percentile(0.5) : SILENT_DB,
    speaks: [me.percentile(0.98) > tMe, others.percentile(0.98) > tOthers],
  };
}

export interface SideTimes {
  me: number;
  others: number;
}

/** Seconds of speech on each side between two times of the recording. */
export function speechBetween(meter: LevelMeter, profile: ChannelProfile, fromSec: number, toSec: number): SideTimes {
  const v = meter.levels();
  const first = Math.max(0, Math.floor(fromSec / FRAME_SEC));
  const last = Math.min(meter.frames, Math.max(first + 1, Math.ceil(toSec / FRAME_SEC)));
  const out = { me: 0, others: 0 };
  const [tMe, tOthers] = [speechThreshold(profile.floor[0]), speechThreshold(profile.floor[1])];
  for (let f = first; f < last; f++) {
    const m = v[2 * f];
    const o = v[2 * f + 1];
    const othersSpeak = o > tOthers;
    // Louder on the microphone than the others' sound alone would make it: the person speaks.
    const meSpeaks = m > tMe && (!othersSpeak || m > o + profile.bleedDb + OVER_BLEED_DB);
    if (meSpeaks) out.me += FRAME_SEC;
    if (othersSpeak) out.others += FRAME_SEC;
  }
  return out;
}

/** The side a stretch of speech belongs to, or null when neither channel carries speech there. */
export function sideOf(t: SideTimes): "me" | "others" | null {
  if (t.me === 0 && t.others === 0) return null;
  return t.me > t.others ? "me" : "others";
}

type Side = "me" | "others";

/**
 * A segment's words in runs of one side (or one voice): a run of one short word joins
 * its longer neighbour, so that a cough or a misheard syllable does not split a line.
 */
export function sideRuns<K>(words: TimedWord[], sides: K[]): { side: K; words: TimedWord[] }[] {
  const runs: { side: K; words: TimedWord[] }[] = [];
  words.forEach((w, i) => {
    const last = runs[runs.length - 1];
    if (last?.side === sides[i]) last.words.push(w);
    else runs.push({ side: sides[i], words: [w] });
  });
  const length = (r: { words: TimedWord[] }) => r.words[r.words.length - 1].end - r.words[0].start;
  for (let i = 0; i < runs.length && runs.length > 1;) {
    const r = runs[i];
    if (r.words.length > 1 || length(r) >= 0.5) {
      i++;
      continue;
    }
    const before = runs[i - 1];
    const after = runs[i + 1];
    const into = !before ? after : !after ? before : length(before) >= length(after) ? before : after;
    if (into === before) before.words.push(...r.words);
    else after.words.unshift(...r.words);
    runs.splice(i, 1);
    // Neighbours of one side that now touch become one run.
    for (let j = 1; j < runs.length; j++)
      if (runs[j].side === runs[j - 1].side) {
        runs[j - 1].words.push(...runs[j].words);
        runs.splice(j--, 1);
      }
    i = 0;
  }
  return runs;
}

/**
 * Attributes each segment to a side and names it: the person recording by their name,
 * the others by the engine's own label where it separated voices, else by
 * `othersName`. A segment with its words' times is split where the side changes (one
 * side talking over the other's end); one without goes to the side with more speech
 * in it. A stretch the levels say nothing about keeps the side before it. With one
 * side silent throughout, everything is the other's; with one signal on both
 * channels, nothing changes.
 */
export function attributeByChannel<
  S extends { startSec: number; endSec: number; speaker: string; text: string; words?: TimedWord[] },
>(meter: LevelMeter, segments: S[], o: { meName: string; othersName: string; profile?: ChannelProfile }): S[] {
  const profile = o.profile ?? channelProfile(meter);
  if (profile.same || !segments.length) return segments;
  // An engine that separated voices labelled them; one that did not gave every segment one label.
  const name = (side: Side, s: S) =>
    side === "me" ? o.meName : s.speaker && s.speaker !== SINGLE_SPEAKER ? s.speaker : o.othersName;
  if (!profile.speaks[0] || !profile.speaks[1]) {
    const side = profile.speaks[0] ? "me" : "others";
    return segments.map((s) => ({ ...s, speaker: name(side, s) }));
  }
  let previous: Side = "others";
  const sideAt = (from: number, to: number) => {
    // A stretch whose times missed the speech a little: look a quarter second either side.
    const side =
      sideOf(speechBetween(meter, profile, from, to)) ?? sideOf(speechBetween(meter, profile, from - 0.25, to + 0.25));
    previous = side ?? previous;
    return previous;
  };
  const out: S[] = [];
  for (const s of segments) {
    if (!s.words || s.words.length < 2) {
      out.push({ ...s, speaker: name(sideAt(s.startSec, s.endSec), s) });
      continue;
    }
    const runs = sideRuns(
      s.words,
      s.words.map((w) => sideAt(w.start, w.end)),
    );
    for (const r of runs)
      out.push({
        ...s,
        speaker: name(r.side, s),
        text: r.words.map((w) => w.text).join(" "),
        startSec: runs.length > 1 ? Math.floor(r.words[0].start) : s.startSec,
        endSec: runs.length > 1 ? Math.ceil(r.words[r.words.length - 1].end) : s.endSec,
        words: r.words,
      });
  }
  return out;
}

// Transcribing a recording window by window, as both the final pipeline
// (process-note.ts) and live transcription (live-transcription.ts) do: each window of
// the decoded audio is written as a WAV, sent to the engine, and its segments placed on
// the recording's own timeline. A window's segments never reach past its end, so
// segments of neighbouring windows do not overlap.
import fsp from "node:fs/promises";
import path from "node:path";
import { FRAME_SEC, frameLevels, voiced, writeWindowWav, type Window } from "../ai/audio.js";
import type {
  SpeechToText,
  TimedWord,
  TranscribeOptions,
  Transcription,
  TranscriptSegment,
} from "../ai/transcription/engine.js";
import type { SegmentRow } from "../db/stores/note-store.js";

/**
 * A segment whose stretch holds less than this share of frames with sound is words over
 * silence, which were never said: whisper writes "Thank you." into a pause, timed from
 * the end of the last sentence into the quiet (measured: a tenth of its frames).
 */
const MIN_VOICED_SHARE = 0.2;

/** Quiet frames kept before a window's first sound and after its last (half a second). */
const EDGE_FRAMES = 5;

/** Which 100 ms frames of a window of the PCM file may hold speech: 1 where they may. */
export type VoiceFrames = (pcm: string, w: Window) => Promise<Uint8Array>;

/** Frames loud enough to hold speech: the default, and measured against Silero VAD (docs/benchmarks.md). */
export const loudFrames: VoiceFrames = async (pcm, w) =>
  Uint8Array.from(await frameLevels(pcm, w), (db) => (voiced(db) ? 1 : 0));

export interface WindowsOptions extends TranscribeOptions {
  /** Where each window's WAV is written (and removed once transcribed), and its file names' prefix. */
  workDir: string;
  prefix: string;
  /** Seconds to add to every time: where the decoded audio starts in the recording. */
  offsetSec?: number;
  /** Told after each window, with how many are done of how many. */
  onWindow?: (done: number, total: number) => void | Promise<void>;
  /** Where speech may be (loudFrames unless given). */
  voice?: VoiceFrames;
}

/** A segment as heard: a transcript row, with its words' times (recording time) where the engine gave them. */
export type HeardSegment = SegmentRow & { words?: TimedWord[] };

/** The rows to store: the words' times served attribution and are not kept. */
export const storedRows = (segments: HeardSegment[]): SegmentRow[] => segments.map(({ words: _w, ...row }) => row);

/**
 * The segments heard in these windows of a 16 kHz PCM file, in order, and the language
 * the engine detected first. Aborting stops before the next window with the signal's
 * reason, so a caller never takes a part for the whole.
 */
export async function transcribeWindows(
  engine: SpeechToText,
  pcm: string,
  windows: Window[],
  o: WindowsOptions,
): Promise<{ segments: HeardSegment[]; language?: string }> {
  const offset = o.offsetSec ?? 0;
  const segments: HeardSegment[] = [];
  let language: string | undefined;
  // Each window is told what the one before it said: a sentence cut at a window's edge carries on.
  let previousText = o.previousText;
  for (const [i, w] of windows.entries()) {
    o.signal.throwIfAborted();
    // Silence is not sent: no engine time is spent on it, and no words are written over it.
    const all = await (o.voice ?? loudFrames)(pcm, w);
    const first = all.indexOf(1);
    if (first < 0) {
      await o.onWindow?.(i + 1, windows.length);
      continue;
    }
    // Nor the quiet at a window's edges: whisper times a sentence said in the middle of a
    // quiet window from the window's start, and its segment then reads as words over silence.
    const from = Math.max(0, first - EDGE_FRAMES);
    const to = Math.min(all.length, all.lastIndexOf(1) + 1 + EDGE_FRAMES);
    const frames = all.subarray(from, to);
    const heardFrom = w.startSec + from * FRAME_SEC;
    const heardTo = Math.min(w.endSec, w.startSec + to * FRAME_SEC);
    const wav = path.join(o.workDir, `${o.prefix}-${i}.wav`);
    // A draft is read by someone waiting and replaced by the final pass: it is heard
    // without the lead-in, which cost pocketsphinx's drafts 3 s more audio each.
    const lead = o.draft ? 0 : Math.min(engine.leadInSec ?? 0, heardFrom);
    await writeWindowWav(pcm, { startSec: heardFrom - lead, endSec: heardTo }, wav);
    try {
      const heard = withoutLeadIn(
        await engine.transcribe(wav, {
          signal: o.signal,
          language: o.language,
          vocabulary: o.vocabulary,
          previousText,
          draft: o.draft,
        }),
        lead,
      );
      if (heard.segments.length) previousText = heard.segments.map((s) => s.text).join(" ");
      language ??= heard.language;
      for (const s of heard.segments) {
        const under = frames.subarray(
          Math.floor(s.start / FRAME_SEC),
          Math.ceil(Math.min(s.end, heardTo - heardFrom) / FRAME_SEC),
        );
        if (under.length && under.reduce((n, x) => n + x, 0) / under.length < MIN_VOICED_SHARE) continue;
        segments.push({
          speaker: s.speaker,
          text: s.text,
          startSec: Math.floor(offset + heardFrom + s.start),
          endSec: Math.ceil(offset + Math.min(heardTo, heardFrom + s.end)),
          ...(s.words?.length
            ? {
                words: s.words.map((x) => ({
                  text: x.text,
                  start: offset + heardFrom + x.start,
                  end: offset + heardFrom + x.end,
                })),
              }
            : {}),
        });
      }
    } finally {
      await fsp.rm(wav, { force: true });
    }
    await o.onWindow?.(i + 1, windows.length);
  }
  return { segments, language };
}

/**
 * What the engine heard in a window given `lead` seconds of the audio before it, on the
 * window's own timeline: a word belongs to the window where most of it was said, and a
 * segment without word times to the one where its middle is.
 */
export function withoutLeadIn(heard: Transcription, lead: number): Transcription {
  if (!lead) return heard;
  const segments: TranscriptSegment[] = [];
  for (const s of heard.segments) {
    const shift = <T extends { start: number; end: number }>(x: T): T => ({
      ...x,
      start: Math.max(0, x.start - lead),
      end: Math.max(0, x.end - lead),
    });
    if (s.words?.length) {
      const words = s.words.filter((x) => (x.start + x.end) / 2 >= lead).map(shift);
      if (!words.length) continue;
      segments.push({
        ...s,
        text: words.length === s.words.length ? s.text : words.map((x) => x.text).join(" "),
        start: words[0].start,
        end: Math.max(0, s.end - lead),
        words,
      });
    } else if ((s.start + s.end) / 2 >= lead) segments.push(shift(s));
  }
  return { ...heard, segments };
}

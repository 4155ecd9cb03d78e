// A transcript's lines given to the voices a diarization found: each line (or each run
// of words, where the engine timed its words) goes to the voice heard most while it was
// said. Only the lines `o.split` picks are touched: the others' side of a two-channel
// recording, or every line of a recording on one microphone.
import type { TimedWord } from "../transcription/engine.js";
import { sideRuns } from "../channels.js";
import type { VoiceTurn } from "./diarize.js";

/** A voice must speak this long in all to count as a person, not a cough or a clatter. */
const MIN_VOICE_SEC = 1;

/** The voice heard most between `from` and `to`, else the nearest within a second, else null. */
export function voiceAt(turns: VoiceTurn[], from: number, to: number): number | null {
  const heard = new Map<number, number>();
  for (const t of turns) {
    const overlap = Math.min(to, t.endSec) - Math.max(from, t.startSec);
    if (overlap > 0) heard.set(t.voice, (heard.get(t.voice) ?? 0) + overlap);
  }
  if (heard.size) return [...heard].sort((a, b) => b[1] - a[1])[0][0];
  let nearest: { voice: number; gap: number } | null = null;
  for (const t of turns) {
    const gap = Math.max(t.startSec - to, from - t.endSec);
    if (gap <= 1 && (!nearest || gap < nearest.gap)) nearest = { voice: t.voice, gap };
  }
  return nearest?.voice ?? null;
}

/** The voices that spoke long enough to be people. */
export function peopleOf(turns: VoiceTurn[]): Set<number> {
  const spoke = new Map<number, number>();
  for (const t of turns) spoke.set(t.voice, (spoke.get(t.voice) ?? 0) + (t.endSec - t.startSec));
  return new Set([...spoke].filter(([, sec]) => sec >= MIN_VOICE_SEC).map(([v]) => v));
}

/**
 * The segments with the picked ones labelled by voice (`label(voice)`). With fewer than
 * two people among the turns, nothing changes: one voice keeps the side's name.
 */
export function splitByVoice<
  S extends { startSec: number; endSec: number; speaker: string; text: string; words?: TimedWord[] },
>(segments: S[], turns: VoiceTurn[], o: { split: (s: S) => boolean; label: (voice: number) => string }): S[] {
  const people = peopleOf(turns);
  if (people.size < 2) return segments;
  const own = turns.filter((t) => people.has(t.voice));
  const out: S[] = [];
  let previous: number | null = null;
  const at = (from: number, to: number) => (previous = voiceAt(own, from, to) ?? previous);
  for (const s of segments) {
    if (!o.split(s)) {
      out.push(s);
      continue;
    }
    if (!s.words || s.words.length < 2) {
      const v = at(s.startSec, s.endSec);
      out.push(v === null ? s : { ...s, speaker: o.label(v) });
      continue;
    }
    const voices = s.words.map((w) => at(w.start, w.end));
    const runs = sideRuns(s.words, voices);
    for (const r of runs)
      out.push({
        ...s,
        speaker: r.side === null ? s.speaker : o.label(r.side),
        text: r.words.map((w) => w.text).join(" "),
        startSec: runs.length > 1 ? Math.floor(r.words[0].start) : s.startSec,
        endSec: runs.length > 1 ? Math.ceil(r.words[r.words.length - 1].end) : s.endSec,
        words: r.words,
      });
  }
  return out;
}

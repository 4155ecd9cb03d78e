// Several voices on one side: the side that may hold several people (the others of a
// two-channel call, or the whole of a one-microphone recording) is split by voice, by
// the local speaker models once a workspace has switched them on, else by the built-in
// separation (spectra and clustering, nothing downloaded; the meeting's number of
// people bounds it). A failure never fails the note: it keeps one speaker per side,
// says why in its warnings, and the reason is kept for the settings page.
import path from "node:path";
import { decodeToPcm } from "../ai/audio.js";
import { diarizePcm, DiarizationError } from "../ai/diarization/diarize.js";
import type { SpeakerModelPaths } from "../ai/diarization/models.js";
import { splitByVoice } from "../ai/diarization/split.js";
import { SINGLE_SPEAKER, type TimedWord } from "../ai/transcription/engine.js";
import { publicErrorMessage } from "../core/error-message.js";

/** The label of the n-th voice (from 0) a recording's diarization found. */
export const voiceLabel = (voice: number) => `Speaker ${voice + 1}`;

export interface VoiceSplit<S> {
  segments: S[];
  /** Said on the note: why its voices were not separated (null when they were, or were not asked for). */
  warning: string | null;
  /** What the engine ran ("sherpa-onnx") when it did. */
  engine: string | null;
  /** The embedding of each voice the lines were given to, by its label (none when not separated). */
  voices: { label: string; embedding: number[] }[];
}

export async function separateVoices<
  S extends { startSec: number; endSec: number; speaker: string; text: string; words?: TimedWord[] },
>(
  segments: S[],
  o: {
    models: SpeakerModelPaths | null;
    audio: string;
    workDir: string;
    /** The two sides' names on a two-channel recording, else null. */
    sides: { meName: string; othersName: string } | null;
    /** The meeting's people, when it names them: no more voices than that. */
    people?: number;
    /** Keeps the reason for the settings page (null: it worked). */
    report: (problem: string | null) => Promise<void>;
    signal?: AbortSignal;
  },
): Promise<VoiceSplit<S>> {
  const unchanged = { segments, warning: null, engine: null, voices: [] };
  if (!segments.length) return unchanged;
  const ours = new Set([SINGLE_SPEAKER, o.sides?.meName, o.sides?.othersName]);
  // A speech server that told voices apart itself: its labels are kept as they are.
  if (segments.some((s) => !ours.has(s.speaker))) return unchanged;
  const twoSides = o.sides !== null && segments.some((s) => s.speaker === o.sides!.meName);
  const meName = o.sides?.meName;
  try {
    const pcm = path.join(o.workDir, "voices.pcm");
    await decodeToPcm(o.audio, pcm, { channel: twoSides ? 1 : undefined, signal: o.signal });
    const { turns, embeddings } = await diarizePcm(pcm, {
      models: o.models,
      // On a two-channel call the person recording is on their own side.
      maxVoices: o.people ? Math.max(1, o.people - (twoSides ? 1 : 0)) : undefined,
      signal: o.signal,
    });
    if (o.models) await o.report(null);
    const split = splitByVoice(segments, turns, { split: (s) => !twoSides || s.speaker !== meName, label: voiceLabel });
    const labels = new Set(split.map((s) => s.speaker));
    // The built-in separation's voices are told apart within a meeting only: its
    // features are the meeting's own, so no print is learned from them.
    if (!o.models) return { segments: split, warning: null, engine: labels.size > 1 ? "built-in" : null, voices: [] };
    return {
      segments: split,
      warning: null,
      engine: "sherpa-onnx",
      voices: embeddings
        .map((embedding, voice) => ({ label: voiceLabel(voice), embedding }))
        .filter((v) => v.embedding.length && labels.has(v.label)),
    };
  } catch (err) {
    if (o.signal?.aborted) throw err;
    const reason = err instanceof DiarizationError ? err.message : publicErrorMessage(err);
    if (o.models) await o.report(`The last recording could not be split into voices: ${reason}.`);
    return { ...unchanged, warning: `Voices were not separated: ${reason}.` };
  }
}

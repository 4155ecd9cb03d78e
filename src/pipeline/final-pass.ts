// The finished transcript of a recording that is still going on. The live drafts show
// words seconds after they are said, in short windows read in a hurry; behind them, a
// final pass reads the same audio in the engine's long windows (whisper's 30 s), each
// told what was said before it, and its segments take the drafts' place. Once the
// recording stops, the pipeline transcribes only what the final pass has not reached.
//
// A recording's transcript, while it is recorded, is three runs of segments:
//   final   the final pass's, for [0, finalSec): the first `finalCount` segments;
//   drafts  the live windows transcribed for good after finalSec (up to `liveFinal` in all);
//   tail    what has arrived past the last complete live window, replaced at every pass.
import type { NoteRow, SegmentRow } from "../db/stores/note-store.js";

type Info = NoteRow["processingInfo"];

/** How far the final pass has got: its segments are the first `count`, up to `sec`. */
export interface FinalMark {
  sec: number;
  count: number;
}

export function finalMark(note: { processingInfo: Info }): FinalMark {
  return {
    sec: Number(note.processingInfo?.finalSec ?? 0) || 0,
    count: Number(note.processingInfo?.finalCount ?? 0) || 0,
  };
}

/** The marks a note keeps while it is recorded, which go once its transcript is done. */
export const RECORDING_MARKS = ["liveSec", "liveFinal", "finalSec", "finalCount"] as const;

export function withoutMarks(info: Info): Record<string, string> {
  const rest = { ...(info ?? {}) };
  for (const k of RECORDING_MARKS) delete rest[k];
  return rest;
}

/**
 * The transcript once the final pass has reached `to` with `heard` (its segments from
 * the previous mark on): the final runs joined, and the drafts and tail it overtook
 * dropped. Returns the segments and the marks to keep.
 */
export function afterFinalWindow(
  note: { processingInfo: Info },
  segments: SegmentRow[],
  heard: SegmentRow[],
  to: number,
): { segments: SegmentRow[]; marks: Record<string, string> } {
  const mark = finalMark(note);
  const liveFinal = Number(note.processingInfo?.liveFinal ?? mark.count) || mark.count;
  const final = [...segments.slice(0, mark.count), ...heard];
  const drafts = segments.slice(mark.count, liveFinal).filter((s) => s.startSec >= to);
  const tail = segments.slice(liveFinal).filter((s) => s.startSec >= to);
  return {
    segments: [...final, ...drafts, ...tail],
    marks: {
      finalSec: to.toFixed(1),
      finalCount: String(final.length),
      liveFinal: String(final.length + drafts.length),
    },
  };
}

/**
 * The final windows under way in this process, by note. Once a recording stops, the
 * pipeline waits for its window under way (one window's work at most) and goes on from
 * where it ends, rather than reading that audio again; a window under way in another
 * process is not waited for, and the pipeline then reads its audio itself.
 */
export interface FinalWindows {
  /** `noteId` has a window under way until `window` settles. */
  track(noteId: string, window: Promise<unknown>): void;
  /** Settles once no window of `noteId` is under way here: true if one was. */
  settled(noteId: string): Promise<boolean>;
}

export function createFinalWindows(): FinalWindows {
  const underWay = new Map<string, Promise<unknown>>();
  return {
    track(noteId, window) {
      const settled = window.then(
        () => {},
        () => {},
      );
      underWay.set(noteId, settled);
      void settled.then(() => underWay.get(noteId) === settled && underWay.delete(noteId));
    },
    async settled(noteId) {
      const window = underWay.get(noteId);
      if (!window) return false;
      await window;
      return true;
    },
  };
}

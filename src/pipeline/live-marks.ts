// How far a live recording's transcription has got, and the lengths it works in: the
// live windows, the recognizer's longest phrase, the final pass's windows and margin.

/**
 * Windows transcribed for good while recording are about this long, each cut at the
 * quietest moment of its last LIVE_CUT_SEC; what has arrived past them is transcribed
 * provisionally at every pass and replaced once its window is complete, so that words
 * show seconds after they are said.
 */
export const LIVE_WINDOW_SEC = 8;
export const LIVE_CUT_SEC = 2;
/**
 * A recognizer that hears no pause for this long (one voice on and on, or steady noise)
 * says what it has and hears afresh from there: its words would otherwise wait for the
 * pause. A live window's length: no longer than the windows drafted words waited for.
 */
export const MAX_PHRASE_SEC = LIVE_WINDOW_SEC + LIVE_CUT_SEC;
/** The final pass's windows are cut at the quietest moment of their last 5 s. */
export const FINAL_CUT_SEC = 5;
/**
 * A final window is read once this much audio past it has arrived (to cut it in the
 * quiet, not at the live edge), so that at the stop about one window is left at most:
 * waiting for a whole cut's worth more (5 s) left up to 40 s, two windows' work.
 */
export const FINAL_MARGIN_SEC = 1;

/**
 * The segments transcribed for good while recording (the provisional tail after them
 * goes): counted by `liveFinal`, or, for a note recorded before that was kept, those
 * that start before `liveSec`.
 */
export function liveFinal<S extends { startSec: number }>(
  note: { processingInfo: Record<string, string> | null },
  segments: S[],
): S[] {
  const count = note.processingInfo?.liveFinal;
  if (count !== undefined) return segments.slice(0, Number(count) || 0);
  const liveSec = Number(note.processingInfo?.liveSec ?? 0);
  return segments.filter((s) => s.startSec < liveSec);
}

/**
 * The note's marks once a live pass has written `count` segments for good up to
 * `liveSec`; for an engine without a final pass the live windows are the finished
 * transcript, and its marks say so too.
 */
export function liveMarks(
  info: Record<string, string> | null,
  liveSec: number,
  count: number,
  finalPass: boolean,
): Record<string, string> {
  return {
    ...(info ?? {}),
    liveSec: liveSec.toFixed(1),
    liveFinal: String(count),
    ...(finalPass ? {} : { finalSec: liveSec.toFixed(1), finalCount: String(count) }),
  };
}

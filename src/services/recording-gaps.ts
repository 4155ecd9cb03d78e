// What a live recording's missing pieces mean: which numbers never arrived, and which
// seconds of the meeting that leaves out, said so a listener can tell.

/** Piece numbers below the highest received that have not arrived. */
export function missingPieces(seqs: number[]): number[] {
  const have = new Set(seqs);
  const last = seqs.length ? Math.max(...seqs) : -1;
  const missing: number[] = [];
  for (let i = 0; i < last; i++) if (!have.has(i)) missing.push(i);
  return missing;
}

const clock = (sec: number) => `${Math.floor(sec / 60)}:${String(Math.floor(sec % 60)).padStart(2, "0")}`;

/**
 * What a gap in the pieces means for the listener: which seconds are missing, placed
 * by the pieces' own durations (a missing piece counts as long as the average one).
 */
export function describeGaps(pieces: { seq: number; durationMs: number | null }[]): string | null {
  const missing = missingPieces(pieces.map((p) => p.seq));
  if (!missing.length) return null;
  const known = pieces.filter((p) => p.durationMs !== null);
  const average = known.length ? known.reduce((s, p) => s + p.durationMs!, 0) / known.length : 0;
  const duration = new Map(pieces.map((p) => [p.seq, p.durationMs ?? average]));
  const runs: [number, number][] = [];
  for (const seq of missing) {
    const last = runs[runs.length - 1];
    if (last && last[1] === seq - 1) last[1] = seq;
    else runs.push([seq, seq]);
  }
  const startOf = (seq: number) => {
    let ms = 0;
    for (let i = 0; i < seq; i++) ms += duration.get(i) ?? average;
    return ms / 1000;
  };
  const parts = runs.map(([a, b]) => {
    const pieceNames = a === b ? `piece ${a}` : `pieces ${a}–${b}`;
    if (!average) return pieceNames;
    return `${pieceNames} (about ${clock(startOf(a))}–${clock(startOf(b + 1))})`;
  });
  return `The recording is missing audio that never arrived: ${parts.join(", ")}.`;
}

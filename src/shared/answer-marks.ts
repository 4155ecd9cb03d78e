// An answer's `[n]` marks, which cite its n-th source: read into pieces so that the
// page that shows the answer (server-rendered, or streamed in by the browser) makes
// each mark a link to that moment. A mark with no source stays text.

export type AnswerPiece = { text: string } | { cite: number };

const MARK = /\[(\d{1,3})\]/g;

/** The answer as text and marks, in order; `sources` is how many citations it has. */
export function answerPieces(answer: string, sources: number): AnswerPiece[] {
  const pieces: AnswerPiece[] = [];
  let at = 0;
  for (const m of answer.matchAll(MARK)) {
    const n = Number(m[1]);
    if (n < 1 || n > sources) continue;
    if (m.index > at) pieces.push({ text: answer.slice(at, m.index) });
    pieces.push({ cite: n });
    at = m.index + m[0].length;
  }
  if (at < answer.length) pieces.push({ text: answer.slice(at) });
  return pieces;
}

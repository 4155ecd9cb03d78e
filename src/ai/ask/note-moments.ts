// The moments of one meeting that a question's words point to: its transcript read in
// windows of a few lines, and its attendee's typed note paragraph by paragraph, matched
// on word stems so that a question's word forms need not be the meeting's.
import { stemmer } from "stemmer";
import type { Moment } from "./answerers.js";

/** A word's stem (Porter's, as the search index stems): "lasted" and "last" meet at "last". */
export const stemOf = (w: string) => stemmer(w.toLowerCase());

/** A typed note's paragraphs and list items, each a moment of its own. */
const typedParagraphs = (text: string) =>
  text
    .split(/\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)/)
    .map((p) => p.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, "").trim())
    .filter((p) => /[\p{L}\p{N}]/u.test(p));

/**
 * One meeting: its lines in windows of a few, and the paragraphs of the attendee's
 * typed note, those that share a word with the question first (word forms aside:
 * "last" finds "lasted").
 */
export function noteMoments(
  row: { id: string; title: string; createdAt: number; userWrittenNote: string },
  lines: { startSec: number; speaker: string; text: string }[],
  words: string[],
): Moment[] {
  const noteId = row.id;
  const stems = new Set(words.map(stemOf));
  const hitsIn = (text: string) => text.split(/[^\p{L}\p{N}]+/u).filter((w) => stems.has(stemOf(w))).length;
  const windows: (Moment & { hits: number })[] = [];
  for (let i = 0; i < lines.length; i += 4) {
    const chunk = lines.slice(i, i + 4);
    const counts = chunk.map((l) => hitsIn(l.text));
    const hits = counts.reduce((a, b) => a + b, 0);
    // The line that says most of the question's words (the first of equals) is quoted.
    const best = chunk[counts.indexOf(Math.max(...counts))];
    windows.push({
      n: 0,
      noteId,
      title: row.title,
      createdAt: row.createdAt,
      startSec: best.startSec,
      speaker: best.speaker,
      quote: best.text,
      context: chunk.map((l) => `${l.speaker}: ${l.text}`).join("\n"),
      hits,
    });
  }
  for (const paragraph of typedParagraphs(row.userWrittenNote))
    windows.push({
      n: 0,
      noteId,
      title: row.title,
      createdAt: row.createdAt,
      startSec: null,
      speaker: null,
      quote: paragraph,
      context: `(the attendee's own note) ${paragraph}`,
      hits: hitsIn(paragraph),
    });
  return windows.filter((w) => w.hits > 0).sort((a, b) => b.hits - a.hits);
}

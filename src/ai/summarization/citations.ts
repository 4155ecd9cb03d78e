// A language model's points cite the transcript lines they come from as the transcript
// shows their times ("… by Friday [01:05]"). A citation is kept, as a link to that
// moment of the note, only when a line was said at that time and shares a content word
// with the point: a model's made-up time, or a line about something else, is dropped.
// A point left citing nothing is kept as it is; both are counted.
import { notePath, momentFragment, secondsOf } from "../../shared/note-links.js";

export interface CitationCount {
  /** Points (list items) that cite at least one line. */
  cited: number;
  /** Points that cite none, or only lines that do not support them. */
  uncited: number;
  /** Citations dropped: no line at that time, or one that shares no content word with its point. */
  dropped: number;
}

const TAG = /\s*\[(\d{1,3}:\d{2}(?::\d{2})?)(?:\s*[,;–-]\s*(\d{1,3}:\d{2}(?::\d{2})?))*\](?!\()/g;
const TIME = /\d{1,3}:\d{2}(?::\d{2})?/g;
const SMALL = new Set(
  "a an and are as at be but by for from has have in is it its of on or our that the their this to was we were will with you your".split(
    " ",
  ),
);
const stem = (w: string) => w.replace(/(ies|es|s|ing|ed)$/, "");
/** A text's content words, stems compared: what a point and a line must share. */
export const contentWords = (s: string) =>
  (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 2 && !SMALL.has(w)).map(stem);

/** The Markdown with each point's times turned into links to their moments, or dropped. */
export function citeLines(
  markdown: string,
  transcript: readonly { text: string; at: string }[],
  noteId: string | undefined,
): { markdown: string; count: CitationCount } {
  const byTime = new Map<number, string[]>();
  for (const l of transcript) {
    const at = secondsOf(l.at);
    if (at !== null) byTime.set(at, [...(byTime.get(at) ?? []), l.text]);
  }
  const count: CitationCount = { cited: 0, uncited: 0, dropped: 0 };
  const lines = markdown.split("\n").map((line) => {
    const point = /^\s*(?:[-*]|\d+\.)\s+/.test(line);
    const words = new Set(contentWords(line.replace(TAG, " ").replace(/\(owners?:[^)]*\)/gi, " ")));
    const links: string[] = [];
    const rest = line.replace(TAG, (tag) => {
      for (const time of tag.match(TIME) ?? []) {
        const at = secondsOf(time);
        const said = at === null ? undefined : byTime.get(at);
        if (at === null || !said || !said.some((t) => contentWords(t).some((w) => words.has(w)))) count.dropped++;
        else links.push(`[${time}](${noteId ? notePath(noteId, at) : momentFragment(at)})`);
      }
      return " ";
    });
    // The links go at the point's end, where the offline note has them too.
    const tidy = (t: string) => t.replace(/(\S) {2,}/g, "$1 ").replace(/\s+$/, "");
    const out = links.length ? `${tidy(rest)} ${links.join(" ")}` : rest === line ? line : tidy(rest);
    const kept = links.length;
    if (point) {
      if (kept) count.cited++;
      else count.uncited++;
    }
    return out;
  });
  return { markdown: lines.join("\n"), count };
}

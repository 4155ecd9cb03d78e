// A name corrected in a transcript line ("Jon Snow" → "John Snow") is the same name
// misheard wherever the note was written from that line: its summary and enhanced note
// are corrected with it, so that search and every export stop saying the wrong name.
// Only words written in capitals count (names of people, places, products); a lower-case
// word changed in one line may be right elsewhere.

const NAME = /^\p{Lu}[\p{L}\p{N}'’-]*$/u;
const bare = (w: string) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");

/** The names a correction of a line changed, each [as it was, as it is now], in the order said. */
export function namesCorrected(before: string, after: string): [string, string][] {
  const a = before.split(/\s+/).map(bare).filter(Boolean);
  const b = after.split(/\s+/).map(bare).filter(Boolean);
  // What the two share at each end is unchanged; the words between were changed.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const was = a.slice(start, a.length - end);
  const now = b.slice(start, b.length - end);
  if (was.length !== now.length) return [];
  const pairs: [string, string][] = [];
  for (const [i, w] of was.entries())
    if (w !== now[i] && NAME.test(w) && NAME.test(now[i]) && !pairs.some(([x]) => x === w)) pairs.push([w, now[i]]);
  return pairs;
}

/** The text with each corrected name written anew, as a whole word only ("Jon" in "Jonas" stays). */
export function withNamesCorrected(text: string, pairs: readonly [string, string][]): string {
  let out = text;
  for (const [was, now] of pairs)
    out = out.replace(
      new RegExp(`(?<![\\p{L}\\p{N}])${was.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}])`, "gu"),
      now,
    );
  return out;
}

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

/** A word that reads as a name or a term: capitalised, or with a capital or a digit inside ("OpenShift", "S3"). */
const TERM = /^(?:\p{Lu}[\p{L}\p{N}'’-]{2,}|\p{L}+\p{Lu}[\p{L}\p{N}]*|[\p{L}]+\d[\p{L}\p{N}]*)$/u;

/**
 * The names and terms a correction wrote that the line did not have ("deploy the Cooper
 * Netties cluster" → "deploy the Kubernetes cluster": Kubernetes), neighbours joined
 * ("Siobhan Nguyen"). A word only capitalised anew ("the" → "The") is none.
 */
export function termsAdded(before: string, after: string): string[] {
  const had = new Set(before.split(/\s+/).map(bare).filter(Boolean));
  const hadLower = new Set([...had].map((w) => w.toLowerCase()));
  const terms: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length) terms.push(run.join(" "));
    run = [];
  };
  for (const w of after.split(/\s+/).map(bare)) {
    if (w && TERM.test(w) && !had.has(w) && !(hadLower.has(w.toLowerCase()) && /^\p{Lu}\p{Ll}*$/u.test(w))) run.push(w);
    else flush();
  }
  flush();
  return [...new Set(terms)];
}

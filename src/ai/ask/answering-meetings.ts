// Which of the one search's meetings answer a question: the rule asking applies to
// the search's results (by words and meaning) and to its meetings found by meaning
// alone, before any moment is read.
import type { SearchResultWithSimilarity as Found } from "../../shared/schemas/search.js";
import { stemOf } from "./note-moments.js";

/**
 * How far below the closest meeting that says the question's words a meeting found by
 * meaning alone may be and still answer it. On the ask benchmark's labelled set, 0.05
 * took citation precision from 0.80 to 0.87 and left recall as it was.
 */
export const MEANING_BESIDE_WORDS = 0.05;

/**
 * The results of `found` (the hybrid search) that answer the question. `related`: the
 * meetings close to it in meaning, above the model's floor (the semantic search's);
 * `terms`: how many words of the question say something.
 *
 * Meetings that say every word (or the phrase) answer it, and when there are such, one
 * that says only some of them is about something else that shares a word. The
 * exception: when none of those is close to the question in meaning, its words met
 * there by chance ("now" and "standup" in a billing meeting, for "Where does the Lisbon
 * office stand now?"), and the meetings that share some of the words and are close in
 * meaning answer it too. Beside meetings that say the words, one found by meaning alone
 * answers only as close to the question as they are: a little below the closest of
 * them, it is another subject near in meaning ("the warehouse query scans the events
 * table" for "schema migration locked orders table").
 */
export function answeringMeetings(found: Found[], related: Set<string>, terms: number): Found[] {
  const whole = found.filter((r) => r.foundBy === "words" || r.foundBy === "phrase");
  const wordsHold = whole.some((r) => related.has(r.note.id)) || (whole.length > 0 && related.size === 0);
  const closestSaying = Math.max(...whole.map((r) => r.similarity ?? 0));
  const answers = (r: Found) => {
    if (r.foundBy === "meaning") return !whole.length || (r.similarity ?? 0) >= closestSaying - MEANING_BESIDE_WORDS;
    if (r.foundBy !== "some-words") return true;
    if (wordsHold) return false;
    if (related.has(r.note.id)) return true;
    if (whole.length) return false;
    // Close to it in neither words nor meaning: a few shared words are not enough.
    const matched = new Set(r.matches.flatMap((m) => [...m.text.matchAll(/«([^»]+)»/g)].map((x) => stemOf(x[1]))));
    return matched.size >= Math.max(2, Math.ceil(terms / 2));
  };
  return found.filter(answers);
}

// How a search's results are tiered: which passes over the words run, in which order,
// and how a note found by each is ranked against the others.
import type { SearchQuery } from "../core/search-query.js";
import type { FOUND_BY } from "../shared/schemas/search.js";

/**
 * How a note was found: the query's words as one phrase, every word, some of them, or
 * (with no word in common) only by meaning, above the model's similarity floor.
 */
export type FoundBy = (typeof FOUND_BY)[number];

/**
 * Results come in tiers: the phrase, then every word, then the rest. A note that says
 * what was asked is never below one that does not. In the last tier a note sharing one
 * word of a question and one related by meaning without any are ranked together (by
 * fused rank, each labelled): a question asked in other words shares a common word with
 * many meetings, and the one that answers it must not be buried under them.
 */
export const TIER: Record<FoundBy, number> = { phrase: 0, words: 1, "some-words": 2, meaning: 2 };

/** Every way of choosing `k` of the items, in order. */
function choose<T>(items: T[], k: number): T[][] {
  if (k === 0) return [[]];
  if (items.length < k) return [];
  const [head, ...rest] = items;
  return [...choose(rest, k - 1).map((c) => [head, ...c]), ...choose(rest, k)];
}

/** Up to this many content terms, "some of the words" means at least half of them. */
const HALF_UP_TO = 6;

/**
 * "Some of the words": at least half of the query's content terms, so that one common
 * word of a long question ("open" in "chess opening theory") does not make a match.
 * Two terms need one; three or four need two. Longer queries (pasted text) need any.
 */
export function someWordsPasses(q: SearchQuery): [FoundBy, SearchQuery, "all" | "any", boolean][] {
  const k = q.terms.length;
  const half = Math.ceil(k / 2);
  if (k < 2 || half < 2 || k > HALF_UP_TO)
    return [
      ["some-words", q, "any", false],
      ["some-words", q, "any", true],
    ];
  return choose(q.terms, half).map((terms) => [
    "some-words",
    { terms, words: [...new Set(terms.flatMap((t) => t.words))] },
    "all",
    false,
  ]);
}

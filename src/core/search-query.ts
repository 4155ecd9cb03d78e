// What a search box means: words (each found by prefix) and "quoted phrases" (found
// as written), ignoring case and accents. Nothing of any engine's query syntax gets
// through: words are letters and digits only, so each dialect can quote them safely.

export interface SearchTerm {
  /** One word (matched as a prefix), or several (a phrase, matched in order). */
  words: string[];
  phrase: boolean;
}

export interface SearchQuery {
  terms: SearchTerm[];
  /** Every distinct word of every term, for highlighting and fallbacks. */
  words: string[];
}

/**
 * The words of a text as search counts them: runs of letters and digits, lower-cased.
 * Every search reads words this way (the query, a search box, a title filter).
 */
export const wordsOf = (text: string): string[] => (text.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.toLowerCase());

/** At most this many terms count: a pasted paragraph must not become a query of hundreds. */
export const MAX_TERMS = 32;

export function parseSearchQuery(text: string): SearchQuery {
  const terms: SearchTerm[] = [];
  const seen = new Set<string>();
  const add = (words: string[], phrase: boolean) => {
    if (!words.length) return;
    const key = `${phrase ? "p" : "w"}:${words.join(" ")}`;
    if (seen.has(key) || terms.length >= MAX_TERMS) return;
    seen.add(key);
    terms.push({ words, phrase: phrase && words.length > 1 });
  };
  // Quoted phrases first; an unclosed quote is just words.
  const rest = text.replace(/"([^"]*)"/g, (_, inner: string) => {
    add(wordsOf(inner), true);
    return " ";
  });
  for (const w of wordsOf(rest)) add([w], false);
  return { terms, words: [...new Set(terms.flatMap((t) => t.words))] };
}

const STOPWORDS = new Set(
  "a an and are as at be but by can could did do does for from had has have how i if in into is it its me my no not of on or our so that the their them then there these they this to was we were what when where which who why will with would you your off must should".split(
    " ",
  ),
);

/** A function word: matched whole only, never as a prefix ("the" must not find "their", "there", "theory"). */
export const isStopword = (word: string) => STOPWORDS.has(word);

/**
 * The query without its function words ("who", "the", "on"), for matching any term:
 * a note that shares only "the" with a question is no match. Phrases stay whole; a
 * query of nothing but function words is kept as it is.
 */
export function contentTerms(q: SearchQuery): SearchQuery {
  const terms = q.terms.filter((t) => t.phrase || !STOPWORDS.has(t.words[0]));
  return terms.length ? { terms, words: [...new Set(terms.flatMap((t) => t.words))] } : q;
}

// One search for every surface (REST /v1/search, the CLI, the web app, the MCP tools):
// notes found by their words and by meaning, each with the moments that matched,
// where they were said (segment, time, speaker). Knowledge-base articles join the
// notes in svc_search_knowledge (assistant-search.ts).
import type { Repositories } from "../db/repos/index.js";
import {
  segmentKey,
  type NoteMatches,
  type NoteScope,
  type RankedNote,
  type SegmentAt,
} from "../db/stores/search-store.js";
import type { SpeakerNameRow } from "../db/repos/speakers.js";
import type { Principal } from "../core/principal.js";
import type { Access } from "./access.js";
import type { Embedder } from "../ai/embeddings/embedder.js";
import { BadRequestError } from "../core/errors.js";
import { iso } from "../core/clock.js";
import { contentTerms, isStopword, parseSearchQuery, type SearchQuery } from "../core/search-query.js";
import { someWordsPasses, TIER, type FoundBy } from "./search-tiers.js";
import { round, RRF_K } from "./search-fusion.js";
import { cursorFingerprint, decodeCursor, encodeCursor } from "./search-cursor.js";
import { assistantSearches } from "./assistant-search.js";
import { toTimestamp } from "../core/transcript-time.js";
import type {
  SearchMatch,
  SearchParams,
  SearchResponse,
  SearchResultWithSimilarity,
} from "../shared/schemas/search.js";

/** Matching notes ranked at most, newest first: a common word costs what a rare one does. */
export const FULLTEXT_CAP = 1000;
const MATCHES_PER_NOTE = 3;
/** How far below the similarity floor a passage still confirms a note found by its words. */
const CONFIRM_MARGIN = 0.15;

/** A search's response with each result's closest passage's similarity to the query. */
export type SearchWithSimilarity = Omit<SearchResponse, "results"> & { results: SearchResultWithSimilarity[] };

interface Candidate {
  id: string;
  seq: number;
  title: string;
  createdAt: number;
  foundBy: FoundBy;
  /** Found by a prefix of the words: its moments may match them as prefixes too (see MomentsOf). */
  prefix: boolean;
  fused: number;
  /** Its closest passage's cosine similarity to the query, where meaning found one. */
  similarity?: number;
  /** The passages that meaning-based search matched, best first. */
  passages?: Passage[];
}

/** A note found by its words: how, and whether by a prefix of them. */
type WordHit = RankedNote & Pick<Candidate, "foundBy" | "prefix">;

interface Passage {
  text: string;
  timestampSec: number | null;
}

export function createSearchService(repos: Repositories, embedder: Embedder | null, access: Access, publicUrl: string) {
  /**
   * Notes ranked by words, in tiers: the query as one phrase (when it has several
   * words and quotes none), then every term, then some of them; within each, whole
   * words before prefixes. Each pass runs only while the page is not full: a prefix
   * query over a common word is the costly one, and rarely needed.
   */
  async function byWords(scope: NoteScope, query: SearchQuery, need: number): Promise<WordHit[]> {
    const several = query.terms.length > 1;
    const asPhrase: SearchQuery | null =
      several && query.terms.every((t) => !t.phrase)
        ? { terms: [{ words: query.terms.map((t) => t.words[0]), phrase: true }], words: query.words }
        : null;
    // Every word that says something: a note need not say "that" or "the" to hold
    // "the migration that locked the table"; the phrase pass keeps them.
    const every = contentTerms(query);
    const severalSaid = every.terms.length > 1;
    type Pass = [FoundBy, SearchQuery, "all" | "any", boolean];
    const passes: Pass[] = [
      ...(asPhrase ? [["phrase", asPhrase, "all", false] as Pass] : []),
      ["words", every, severalSaid ? "all" : "any", false],
      ["words", every, severalSaid ? "all" : "any", true],
      ...(severalSaid ? someWordsPasses(every) : []),
    ];
    const out: WordHit[] = [];
    const seen = new Set<string>();
    for (const [foundBy, q, match, prefix] of passes) {
      if (out.length >= need) break;
      for (const n of await repos.search.rankNotes({
        ...scope,
        query: q,
        match,
        prefix,
        limit: need,
        cap: FULLTEXT_CAP,
      })) {
        if (seen.has(n.id)) continue;
        seen.add(n.id);
        out.push({ ...n, foundBy, prefix });
      }
    }
    return out;
  }

  /**
   * Notes ranked by meaning: each by its closest passage, kept only when in scope, with
   * its closest transcript passage too (the moment), when that is among the nearest.
   */
  async function byMeaning(
    scope: NoteScope,
    text: string,
    need: number,
  ): Promise<(Candidate & { related: boolean })[]> {
    if (!embedder) return [];
    const [vector] = await embedder.embed([text]);
    const best = new Map<string, Passage[]>();
    const nearest = new Map<string, number>();
    // A few passages per note wanted: most notes' best passages are near one another.
    for (const hit of await repos.passages.nearest(scope.workspaceId, vector, Math.min(200, need * 3), embedder.name)) {
      // Below the model's floor a passage is not related, only the least unrelated:
      // without it every query would find the whole workspace. A little below it, it
      // may still confirm a note the words found (the caller decides).
      const similarity = 1 - hit.distance;
      if (hit.source !== "note" || similarity < embedder.minSimilarity - CONFIRM_MARGIN) continue;
      nearest.set(hit.sourceId, Math.max(nearest.get(hit.sourceId) ?? 0, similarity));
      const kept = best.get(hit.sourceId) ?? [];
      const timed = hit.timestampSec !== null;
      if (kept.length === 0 || (timed && !kept.some((p) => p.timestampSec !== null)))
        kept.push({ text: hit.text, timestampSec: hit.timestampSec });
      best.set(hit.sourceId, kept);
    }
    const visible = await repos.search.inScope(scope, [...best.keys()]);
    return visible.map((n) => ({
      ...n,
      foundBy: "meaning" as const,
      prefix: false,
      fused: 0,
      passages: best.get(n.id)!,
      similarity: nearest.get(n.id)!,
      related: nearest.get(n.id)! >= embedder.minSimilarity,
    }));
  }

  /**
   * The moments of one note that matched: transcript segments by words, then the
   * passage by meaning. A page of results passes what it read for all its notes at once.
   */
  async function matchesOf(
    c: Candidate,
    query: SearchQuery,
    speaker: string | undefined,
    known?: { names?: Map<string, SpeakerNameRow>; found?: NoteMatches; segments?: Map<string, SegmentAt> },
  ): Promise<SearchMatch[]> {
    const names = known?.names ?? (await repos.speakers.namesOf(c.id));
    const nameOf = (label: string) => names.get(label)?.name ?? label;
    const bySpeaker = (label: string) =>
      !speaker || label.toLowerCase() === speaker || nameOf(label).toLowerCase() === speaker;
    const out: SearchMatch[] = [];
    // The words that carry meaning: a segment that shares only "the" with the query is no moment of it.
    const said = contentTerms(query);
    for (const m of known?.found?.moments ?? (await repos.search.moments(c, said, speaker ? 25 : MATCHES_PER_NOTE))) {
      if (!bySpeaker(m.speaker)) continue;
      out.push({
        text: m.text,
        segment: m.position,
        startTimestamp: toTimestamp(m.startSec),
        speaker: nameOf(m.speaker),
      });
      if (out.length >= MATCHES_PER_NOTE) break;
    }
    for (const passage of c.passages ?? []) {
      if (out.length >= MATCHES_PER_NOTE) break;
      const time = passage.timestampSec;
      const at =
        time === null
          ? null
          : ((known?.segments ?? (await repos.search.segmentsAt([{ noteId: c.id, startSec: time }]))).get(
              segmentKey(c.id, time),
            ) ?? null);
      if (at ? out.some((m) => m.segment === at.position) || !bySpeaker(at.speaker) : speaker) continue;
      out.push({
        text: passage.text.length > 240 ? `${passage.text.slice(0, 239)}…` : passage.text,
        segment: at?.position ?? null,
        startTimestamp: at ? toTimestamp(at.startSec) : null,
        speaker: at ? nameOf(at.speaker) : null,
      });
    }
    if (!out.length && !speaker) {
      const snippet = known?.found ? known.found.snippet : await repos.search.noteSnippet(c, said);
      if (snippet) out.push({ text: snippet, segment: null, startTimestamp: null, speaker: null });
    }
    return out;
  }

  /**
   * A search as the API gives it; `evidence` adds each note's closest passage's
   * similarity to the query (null where meaning did not find it), for callers inside
   * the server that decide on it (asking), never sent.
   */
  async function search(p: Principal, params: SearchParams): Promise<SearchResponse>;
  async function search(p: Principal, params: SearchParams, evidence: "similarity"): Promise<SearchWithSimilarity>;
  async function search(p: Principal, params: SearchParams, evidence?: "similarity"): Promise<SearchResponse> {
    const query = parseSearchQuery(params.q);
    if (!query.terms.length) throw new BadRequestError("q: give at least one word to search for (letters or digits).");
    // "the of and" would find every meeting: say so rather than return the workspace.
    if (query.terms.every((t) => !t.phrase && isStopword(t.words[0])))
      throw new BadRequestError(
        `q: ${query.words.map((w) => `"${w}"`).join(", ")} ${query.words.length > 1 ? "are words" : "is a word"} too common to search for; add a word that says what you are looking for, or quote a phrase.`,
      );
    if (params.mode === "semantic" && !embedder)
      throw new BadRequestError(
        "mode: semantic search needs an embedding model, and this server has none (NOTULA_EMBEDDINGS=none); use fulltext or hybrid.",
      );
    const fingerprint = cursorFingerprint(p, params);
    const offset = decodeCursor(params.cursor, fingerprint);
    const need = offset + params.limit + 1;
    const speaker = params.speaker?.trim().toLowerCase() || undefined;
    const scope: NoteScope = {
      ...(await access.view(p)),
      fromDate: params.fromDate,
      toDate: params.toDate,
      folderIds: params.folderIds,
      participantEmail: params.participantEmail?.toLowerCase(),
      speaker,
    };
    const mode = params.mode === "hybrid" && !embedder ? "fulltext" : params.mode;

    // Reciprocal-rank fusion: scores of the two rankings are not comparable, ranks are.
    // A note found by words keeps its tier; meaning only reorders notes within one.
    const fused = new Map<string, Candidate>();
    const fuse = (list: (Omit<Candidate, "fused"> & { fused?: number })[]) =>
      list.forEach((c, i) => {
        const prev = fused.get(c.id);
        fused.set(c.id, {
          ...c,
          ...prev,
          passages: prev?.passages ?? c.passages,
          similarity: prev?.similarity ?? c.similarity,
          fused: (prev?.fused ?? 0) + 1 / (RRF_K + i + 1),
        });
      });
    // Both at once: the question is embedded (on the model's thread, so asked first)
    // while the words are ranked (by the database). Time left over while the embedding
    // runs reads the moments of the page the words alone would give: meaning reorders
    // notes within a tier and adds few, so most of that page is the final one.
    let embedded = mode === "fulltext";
    const meaningFound =
      mode !== "fulltext" ? byMeaning(scope, params.q, need).finally(() => (embedded = true)) : Promise.resolve([]);
    const terms = contentTerms(query);
    const wordsFound = (async () => {
      if (mode === "semantic") return { words: [], early: new Map<string, NoteMatches>() };
      const words = await byWords(scope, query, need);
      const early =
        !speaker && !embedded
          ? await repos.search.pageMatches(words.slice(offset, offset + params.limit), terms, MATCHES_PER_NOTE)
          : new Map<string, NoteMatches>();
      return { words, early };
    })();
    const [{ words, early }, meaning] = await Promise.all([wordsFound, meaningFound]);
    fuse(words);
    // Meaning finds a note on its own above the floor; a little below, it only reorders
    // notes the words found.
    fuse(meaning.filter((c) => c.related || fused.has(c.id)));

    const tier = (c: Candidate) => TIER[c.foundBy];
    const ranked = [...fused.values()].sort(
      (a, b) => tier(a) - tier(b) || b.fused - a.fused || b.createdAt - a.createdAt,
    );
    const results = [];
    let more = false;
    const present = (c: Candidate, matches: SearchMatch[]) => ({
      note: { id: c.id, title: c.title, createdAt: iso(c.createdAt) },
      foundBy: c.foundBy,
      score: round(c.fused),
      matches,
      ...(evidence ? { similarity: c.similarity ?? null } : {}),
    });
    if (!speaker) {
      const page = ranked.slice(offset, offset + params.limit);
      // The page's speakers, moments and passages' segments at once: on a database
      // server each is a round trip, and none waits on another. So where the passages
      // found by meaning begin is read for each note whose moments are not read yet,
      // though its words may then fill them and leave no room for a passage.
      const [names, pageFound, segments] = await Promise.all([
        repos.speakers.namesOfNotes(page.map((c) => c.id)),
        repos.search.pageMatches(
          page.filter((c) => !early.has(c.id)),
          terms,
          MATCHES_PER_NOTE,
        ),
        repos.search.segmentsAt(
          page.flatMap((c) =>
            (early.get(c.id)?.moments.length ?? 0) < MATCHES_PER_NOTE
              ? (c.passages ?? []).flatMap((p) =>
                  p.timestampSec === null ? [] : [{ noteId: c.id, startSec: p.timestampSec }],
                )
              : [],
          ),
        ),
      ]);
      const found = new Map([...early, ...pageFound]);
      for (const c of page)
        results.push(
          present(
            c,
            await matchesOf(c, query, undefined, { names: names.get(c.id), found: found.get(c.id), segments }),
          ),
        );
      more = ranked.length > offset + params.limit;
    } else {
      // With a speaker, a note counts only where that speaker said the words: its matches decide.
      let qualifying = 0;
      for (const c of ranked) {
        const matches = await matchesOf(c, query, speaker);
        if (!matches.length || qualifying++ < offset) continue;
        if (results.length === params.limit) {
          more = true;
          break;
        }
        results.push(present(c, matches));
      }
    }
    return {
      results,
      mode,
      pagination: { limit: params.limit, nextCursor: more ? encodeCursor(offset + params.limit, fingerprint) : null },
      suggestion: results.length || offset ? null : await suggest(p, params, query),
    };
  }

  /**
   * For a search that found nothing, what would find something, when a change of the
   * search does: the words without their quotes, or the search without its filters.
   */
  async function suggest(p: Principal, params: SearchParams, query: SearchQuery): Promise<string | null> {
    const finds = async (changed: SearchParams) => {
      try {
        return (await search(p, { ...changed, limit: 1, cursor: undefined })).results.length > 0;
      } catch (err) {
        // Unquoted, a phrase of common words is no search at all.
        if (err instanceof BadRequestError) return false;
        throw err;
      }
    };
    if (query.terms.some((t) => t.phrase)) {
      const unquoted = params.q.replace(/"/g, " ");
      if (await finds({ ...params, q: unquoted }))
        return "No note has those words together as quoted; some have them apart: search without the quotes.";
    }
    const filtered = Boolean(
      params.folderIds?.length ||
      params.fromDate !== undefined ||
      params.toDate !== undefined ||
      params.participantEmail ||
      params.speaker,
    );
    if (
      filtered &&
      (await finds({
        q: params.q,
        mode: params.mode,
        limit: 1,
      }))
    )
      return "Nothing matches within the filters; notes outside them do: search without the filters.";
    return null;
  }

  return {
    search,

    ...assistantSearches(search, repos, embedder, publicUrl),
  };
}

export type SearchService = ReturnType<typeof createSearchService>;

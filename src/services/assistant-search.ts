// The two searches the MCP tools offer assistants, over the one search of search.ts:
// notes by their words with the moment to cite, and notes with knowledge-base articles.
import type { Repositories } from "../db/repos/index.js";
import type { Principal } from "../core/principal.js";
import type { Embedder } from "../ai/embeddings/embedder.js";
import { parseSearchQuery } from "../core/search-query.js";
import type {
  KnowledgeSearchQueryInput,
  NoteSearchQueryInput,
  SearchParams,
  SearchResponse,
} from "../shared/schemas/search.js";
import { round, RRF_K } from "./search-fusion.js";
import { noteUrl, secondsOf } from "../shared/note-links.js";

export function assistantSearches(
  search: (p: Principal, params: SearchParams) => Promise<SearchResponse>,
  repos: Repositories,
  embedder: Embedder | null,
  publicUrl: string,
) {
  /** The best match's moment, to cite: its time, speaker and the link that opens the note there. */
  const moment = (h: SearchResponse["results"][number]) => {
    const m = h.matches[0];
    const at = secondsOf(m?.startTimestamp);
    return {
      url: noteUrl(publicUrl, h.note.id, at),
      ...(m?.startTimestamp ? { timestamp: m.startTimestamp, speaker: m.speaker ?? undefined } : {}),
    };
  };
  return {
    /** svc_search_notes: by words, with the best moment's time and speaker to cite. */
    async notes(p: Principal, q: NoteSearchQueryInput) {
      const r = await search(p, { q: q.query, mode: "fulltext", limit: q.limit ?? 10 });
      return {
        notes: r.results.map((h) => ({
          id: h.note.id,
          title: h.note.title,
          createdAt: h.note.createdAt,
          snippet: h.matches[0]?.text ?? "",
          score: h.score,
          ...moment(h),
        })),
        query: q.query,
        count: r.results.length,
      };
    },

    /**
     * svc_search_knowledge: notes (as the one search finds them) and knowledge-base
     * articles, fused by reciprocal rank. A folder or date filter leaves articles out:
     * they belong to no folder and have no meeting date.
     */
    async knowledge(p: Principal, q: KnowledgeSearchQueryInput) {
      const { limit } = q;
      const filtered = Boolean(q.folderIds?.length || q.fromDate !== undefined || q.toDate !== undefined);
      const notes = await search(p, {
        q: q.query,
        mode: "hybrid",
        limit: Math.min(50, limit * 2),
        folderIds: q.folderIds,
        fromDate: q.fromDate,
        toDate: q.toDate,
      });
      type Result = {
        source: "note" | "article";
        id: string;
        title: string;
        snippet: string;
        score: number;
        timestamp?: string;
        speaker?: string;
        url?: string;
      };
      const lists: Result[][] = [
        notes.results.map((h) => ({
          source: "note",
          id: h.note.id,
          title: h.note.title,
          snippet: h.matches[0]?.text ?? "",
          score: 0,
          ...moment(h),
        })),
      ];
      if (!filtered) {
        const words = parseSearchQuery(q.query).words;
        const text = (await repos.search.articles({ workspaceId: p.workspaceId, words, limit: limit * 2 })).map(
          (a): Result => ({ source: "article", id: a.id, title: a.title, snippet: a.snippet, score: 0 }),
        );
        const meaning: Result[] = [];
        if (embedder) {
          const [vector] = await embedder.embed([q.query]);
          const seen = new Set<string>();
          for (const hit of await repos.passages.nearest(p.workspaceId, vector, limit * 8, embedder.name)) {
            if (hit.source !== "article" || seen.has(hit.sourceId) || 1 - hit.distance < embedder.minSimilarity)
              continue;
            seen.add(hit.sourceId);
            const article = await repos.knowledge.getById(hit.sourceId);
            if (article?.workspaceId === p.workspaceId)
              meaning.push({
                source: "article",
                id: article.id,
                title: article.title,
                snippet: hit.text.length > 240 ? `${hit.text.slice(0, 239)}…` : hit.text,
                score: 0,
              });
          }
        }
        lists.push(text, meaning);
      }
      const fused = new Map<string, Result>();
      for (const list of lists)
        list.forEach((r, i) => {
          const key = `${r.source}:${r.id}`;
          const prev = fused.get(key);
          fused.set(key, { ...(prev ?? r), score: (prev?.score ?? 0) + 1 / (RRF_K + i + 1) });
        });
      const results = [...fused.values()]
        .sort((a, b) => b.score - a.score)
        .slice(0, limit)
        .map((r) => ({ ...r, score: round(r.score) }));
      return embedder
        ? { results, mode: "hybrid" as const, note: `Ranked by meaning (${embedder.name}) and by words, fused.` }
        : {
            results,
            mode: "full-text" as const,
            note: "Ranked by full-text match only: no embedding model is configured for meaning-based search.",
          };
    },
  };
}

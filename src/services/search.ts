// Searching what the workspace knows: notes (title, notes, summary, enhanced note,
// transcript) and knowledge-base articles, by full-text ranking.
import type { Repositories } from "../db/repos/index.js";
import { searchWords } from "../db/repos/search.js";
import type { Principal } from "../core/principal.js";
import type { Embedder } from "../ai/embeddings/embedder.js";
import { iso } from "../core/clock.js";
import { toTimestamp } from "../core/transcript-time.js";
import type { KnowledgeSearchQueryInput, NoteSearchQueryInput } from "../shared/schemas/search.js";

interface Candidate {
  source: "note" | "article";
  id: string;
  snippet: string;
  timestampSec: number | null;
}

const round = (x: number) => Math.round(x * 10000) / 10000;

/** bm25 is "lower is better" and unbounded; shown as a positive score, higher better. */
const score = (rank: number) => Math.round(-rank * 1000) / 1000;


export function createSearchService(repos: Repositories, embedder: Embedder | null) {
  return {
    async notes(p: Principal, q: NoteSearchQueryInput) {
      const words = searchWords(q.query);
      const hits = await repos.search.notes({ workspaceId: p.workspaceId, viewerUserId: p.userId, words, limit: q.limit ?? 10 });
      return {
        notes: hits.map((h) => ({ id: h.id, title: h.title, createdAt: iso(h.createdAt), snippet: h.snippet, score: score(h.rank) })),
        query: q.query,
        count: hits.length,
      };
    },

    /**
     * Notes and articles together, by meaning (embeddings) and by words (full text).
     * Their scores are not comparable, so the rankings are fused by reciprocal rank
     * (RRF, k = 60); without an embedding model, the full-text ranking alone.
     */
    async knowledge(p: Principal, q: KnowledgeSearchQueryInput) {
      const { limit, fromDate, toDate } = q;
      const words = searchWords(q.query);
      const filtered = Boolean(q.folderIds?.length || fromDate !== undefined || toDate !== undefined);
      const lists: Candidate[][] = [];

      const textNotes = await repos.search.notes({ workspaceId: p.workspaceId, viewerUserId: p.userId, words, limit: limit * 3, fromDate, toDate, folderIds: q.folderIds });
      lists.push(textNotes.map((h) => ({ source: "note", id: h.id, snippet: h.snippet, timestampSec: null })));
      // Articles belong to no folder and have no meeting date: a folder or date filter leaves them out.
      if (!filtered)
        lists.push((await repos.search.articles({ workspaceId: p.workspaceId, words, limit: limit * 3 })).map((h) => ({ source: "article", id: h.id, snippet: h.snippet, timestampSec: null })));

      if (embedder) {
        const [vector] = await embedder.embed([q.query]);
        const seen = new Set<string>();
        const semantic: Candidate[] = [];
        for (const hit of await repos.passages.nearest(p.workspaceId, vector, limit * 8, embedder.name)) {
          const key = `${hit.source}:${hit.sourceId}`;
          if (seen.has(key)) continue; // the best passage speaks for its note or article
          seen.add(key);
          if (hit.source === "article" && filtered) continue;
          semantic.push({ source: hit.source, id: hit.sourceId, snippet: hit.text.length > 240 ? `${hit.text.slice(0, 239)}…` : hit.text, timestampSec: hit.timestampSec });
        }
        lists.push(semantic);
      }

      const fused = new Map<string, Candidate & { fused: number }>();
      for (const list of lists)
        list.forEach((c, i) => {
          const key = `${c.source}:${c.id}`;
          const prev = fused.get(key);
          fused.set(key, { ...(prev ?? c), timestampSec: prev?.timestampSec ?? c.timestampSec, fused: (prev?.fused ?? 0) + 1 / (60 + i + 1) });
        });

      // Whatever ranks, the caller must be allowed to see it, and it must pass the filters.
      const results = [];
      for (const c of [...fused.values()].sort((a, b) => b.fused - a.fused)) {
        if (results.length >= limit) break;
        if (c.source === "note") {
          const note = await repos.notes.get(p.workspaceId, p.userId, c.id);
          if (!note) continue;
          if ((fromDate !== undefined && note.createdAt < fromDate) || (toDate !== undefined && note.createdAt >= toDate)) continue;
          if (q.folderIds?.length && !((await repos.notes.foldersOf([c.id])).get(c.id) ?? []).some((f) => q.folderIds!.includes(f.id))) continue;
          results.push({ source: "note" as const, id: c.id, title: note.title, snippet: c.snippet, score: round(c.fused), ...(c.timestampSec !== null ? { timestamp: toTimestamp(c.timestampSec) } : {}) });
        } else {
          const article = await repos.knowledge.getById(c.id);
          if (!article || article.workspaceId !== p.workspaceId) continue;
          results.push({ source: "article" as const, id: c.id, title: article.title, snippet: c.snippet, score: round(c.fused) });
        }
      }
      return embedder
        ? { results, mode: "hybrid" as const, note: `Ranked by meaning (${embedder.name}) and by words, fused.` }
        : { results, mode: "full-text" as const, note: "Ranked by full-text match only: no embedding model is configured for meaning-based search." };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;

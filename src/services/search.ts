// Searching what the workspace knows: notes (title, notes, summary, enhanced note,
// transcript) and knowledge-base articles, by full-text ranking.
import type { Repositories } from "../db/repos/index.js";
import { anyWordQuery } from "../db/repos/search.js";
import type { Principal } from "./principal.js";
import { iso } from "./time.js";

/** bm25 is "lower is better" and unbounded; shown as a positive score, higher better. */
const score = (rank: number) => Math.round(-rank * 1000) / 1000;

export interface KnowledgeQuery {
  query: string;
  limit?: number;
  folderIds?: string[];
  fromDate?: string;
  toDate?: string;
}

export function createSearchService(repos: Repositories) {
  return {
    notes(p: Principal, q: { query: string; limit?: number }) {
      const match = anyWordQuery(q.query);
      const hits = match ? repos.search.notes({ workspaceId: p.workspaceId, viewerUserId: p.userId, match, limit: q.limit ?? 10 }) : [];
      return {
        notes: hits.map((h) => ({ id: h.id, title: h.title, createdAt: iso(h.createdAt), snippet: h.snippet, score: score(h.rank) })),
        query: q.query,
        count: hits.length,
      };
    },

    /**
     * Notes and articles together. Their bm25 scores are not comparable, so the two
     * rankings are fused by reciprocal rank (RRF, k = 60).
     */
    knowledge(p: Principal, q: KnowledgeQuery) {
      const limit = q.limit ?? 10;
      const match = anyWordQuery(q.query);
      const parse = (d?: string) => (d ? Date.parse(d) : undefined);
      const notes = match
        ? repos.search.notes({ workspaceId: p.workspaceId, viewerUserId: p.userId, match, limit: limit * 2, fromDate: parse(q.fromDate), toDate: parse(q.toDate), folderIds: q.folderIds })
        : [];
      // Articles belong to no folder and have no meeting date: a folder or date filter leaves them out.
      const articles = match && !q.folderIds?.length && !q.fromDate && !q.toDate ? repos.search.articles({ workspaceId: p.workspaceId, match, limit: limit * 2 }) : [];
      const fused = [
        ...notes.map((h, i) => ({ source: "note" as const, id: h.id, title: h.title, snippet: h.snippet, fused: 1 / (60 + i + 1), createdAt: h.createdAt })),
        ...articles.map((h, i) => ({ source: "article" as const, id: h.id, title: h.title, snippet: h.snippet, fused: 1 / (60 + i + 1), createdAt: h.createdAt })),
      ]
        .sort((a, b) => b.fused - a.fused)
        .slice(0, limit);
      return {
        results: fused.map((r) => ({ source: r.source, id: r.id, title: r.title, snippet: r.snippet, score: Math.round(r.fused * 10000) / 10000, timestamp: iso(r.createdAt) })),
        mode: "full-text" as const,
        note: "Ranked by full-text match: no embedding model is configured for meaning-based search.",
      };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;

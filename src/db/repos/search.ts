// Full-text search over notes and knowledge-base articles (FTS5, bm25 ranking).
import type { Db } from "../open.js";

export interface NoteHit {
  id: string;
  title: string;
  createdAt: number;
  snippet: string;
  rank: number;
}

export interface ArticleHit {
  id: string;
  title: string;
  createdAt: number;
  snippet: string;
  rank: number;
}

/** A search box's words as an FTS5 query: any word, by prefix; bm25 ranks notes with more of them first. */
export function anyWordQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}]+/gu);
  return words ? [...new Set(words.map((w) => w.toLowerCase()))].map((w) => `"${w}"*`).join(" OR ") : null;
}

export function searchRepo(db: Db) {
  const notesStmt = db.$client.prepare(`
    SELECT n.id, n.title, n.created_at AS createdAt,
           snippet(notes_fts, -1, '«', '»', '…', 16) AS snippet,
           bm25(notes_fts, 4.0, 1.0) AS rank
    FROM notes_fts JOIN notes n ON n.seq = notes_fts.rowid
    WHERE notes_fts MATCH @match AND n.workspace_id = @ws AND (n.visibility <> 'only-me' OR n.created_by = @viewer)
      AND (@from IS NULL OR n.created_at >= @from) AND (@to IS NULL OR n.created_at < @to)
      AND (@folders IS NULL OR n.id IN (SELECT note_id FROM note_folders WHERE folder_id IN (SELECT value FROM json_each(@folders))))
    ORDER BY rank LIMIT @limit`);
  const articlesStmt = db.$client.prepare(`
    SELECT a.id, a.title, a.created_at AS createdAt,
           snippet(knowledge_fts, -1, '«', '»', '…', 16) AS snippet,
           bm25(knowledge_fts, 0, 0, 4.0, 1.0) AS rank
    FROM knowledge_fts JOIN knowledge_articles a ON a.id = knowledge_fts.article_id
    WHERE knowledge_fts MATCH @match AND knowledge_fts.workspace_id = @ws
    ORDER BY rank LIMIT @limit`);
  return {
    notes(q: { workspaceId: string; viewerUserId: string; match: string; limit: number; fromDate?: number; toDate?: number; folderIds?: string[] }): NoteHit[] {
      return notesStmt.all({
        match: q.match,
        ws: q.workspaceId,
        viewer: q.viewerUserId,
        limit: q.limit,
        from: q.fromDate ?? null,
        to: q.toDate ?? null,
        folders: q.folderIds?.length ? JSON.stringify(q.folderIds) : null,
      }) as NoteHit[];
    },
    articles(q: { workspaceId: string; match: string; limit: number }): ArticleHit[] {
      return articlesStmt.all({ match: q.match, ws: q.workspaceId, limit: q.limit }) as ArticleHit[];
    },
  };
}

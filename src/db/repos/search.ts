// Full-text search over notes and knowledge-base articles on SQLite (FTS5, bm25
// ranking); src/db/pg/search.ts answers the same on PostgreSQL.
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

/** The words of a search box, lower-cased, each once; nothing of any query syntax survives. */
export function searchWords(text: string): string[] {
  return [...new Set((text.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.toLowerCase()))];
}

/** What both dialects' search repositories answer. */
export interface NoteSearch {
  workspaceId: string;
  viewerUserId: string;
  /** From searchWords: any of them matches, by prefix; notes with more of them rank first. */
  words: string[];
  limit: number;
  fromDate?: number;
  toDate?: number;
  folderIds?: string[];
}

/** Any word, by prefix, as FTS5 query syntax; bm25 ranks rows with more of them first. */
const anyWordMatch = (words: string[]) => words.map((w) => `"${w}"*`).join(" OR ");

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
    notes(q: NoteSearch): NoteHit[] {
      if (!q.words.length) return [];
      return notesStmt.all({
        match: anyWordMatch(q.words),
        ws: q.workspaceId,
        viewer: q.viewerUserId,
        limit: q.limit,
        from: q.fromDate ?? null,
        to: q.toDate ?? null,
        folders: q.folderIds?.length ? JSON.stringify(q.folderIds) : null,
      }) as NoteHit[];
    },
    articles(q: { workspaceId: string; words: string[]; limit: number }): ArticleHit[] {
      if (!q.words.length) return [];
      return articlesStmt.all({ match: anyWordMatch(q.words), ws: q.workspaceId, limit: q.limit }) as ArticleHit[];
    },
  };
}

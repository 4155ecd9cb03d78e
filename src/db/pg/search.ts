// Full-text search on PostgreSQL, answering what the SQLite repository answers with
// FTS5: any word by prefix (to_tsquery 'word:*'), English stemming, the title weighted
// above the body (setweight A/B), ranked by ts_rank_cd, with a «marked» snippet.
// notes_search holds one row per note, rewritten by reindexNote whenever a part changes.
import { sql, type SQL } from "drizzle-orm";
import type { ArticleHit, NoteHit, NoteSearch } from "../repos/search.js";
import type { PgDb } from "./open.js";

/** Words from searchWords are letters and digits only: safe inside a tsquery. */
const anyWordTsquery = (words: string[]) => words.map((w) => `${w}:*`).join(" | ");
const HEADLINE = "StartSel=«, StopSel=», MaxWords=16, MinWords=6, ShortWord=2, HighlightAll=false";
const articleVector = sql`(setweight(to_tsvector('english', a.title), 'A') || setweight(to_tsvector('english', a.content), 'B'))`;

export function pgSearchRepo(db: PgDb) {
  return {
    async notes(q: NoteSearch): Promise<NoteHit[]> {
      if (!q.words.length) return [];
      const filters: SQL[] = [];
      if (q.fromDate !== undefined) filters.push(sql`AND n.created_at >= ${q.fromDate}`);
      if (q.toDate !== undefined) filters.push(sql`AND n.created_at < ${q.toDate}`);
      if (q.folderIds?.length) filters.push(sql`AND EXISTS (SELECT 1 FROM note_folders nf WHERE nf.note_id = n.id AND nf.folder_id IN ${q.folderIds})`);
      const { rows } = await db.execute<{ id: string; title: string; createdAt: string; snippet: string; rank: number }>(sql`
        SELECT n.id, n.title, n.created_at AS "createdAt",
               ts_headline('english', s.title || E'\\n' || s.body, query, ${HEADLINE}) AS snippet,
               -ts_rank_cd(s.tsv, query) AS rank
        FROM notes_search s JOIN notes n ON n.seq = s.note_seq, to_tsquery('english', ${anyWordTsquery(q.words)}) AS query
        WHERE s.tsv @@ query AND n.workspace_id = ${q.workspaceId} AND (n.visibility <> 'only-me' OR n.created_by = ${q.viewerUserId})
        ${sql.join(filters, sql` `)}
        ORDER BY rank, n.id LIMIT ${q.limit}`);
      return rows.map((r) => ({ ...r, createdAt: Number(r.createdAt), rank: Number(r.rank) }));
    },

    async articles(q: { workspaceId: string; words: string[]; limit: number }): Promise<ArticleHit[]> {
      if (!q.words.length) return [];
      const { rows } = await db.execute<{ id: string; title: string; createdAt: string; snippet: string; rank: number }>(sql`
        SELECT a.id, a.title, a.created_at AS "createdAt",
               ts_headline('english', a.title || E'\\n' || a.content, query, ${HEADLINE}) AS snippet,
               -ts_rank_cd(${articleVector}, query) AS rank
        FROM knowledge_articles a, to_tsquery('english', ${anyWordTsquery(q.words)}) AS query
        WHERE ${articleVector} @@ query AND a.workspace_id = ${q.workspaceId}
        ORDER BY rank, a.id LIMIT ${q.limit}`);
      return rows.map((r) => ({ ...r, createdAt: Number(r.createdAt), rank: Number(r.rank) }));
    },
  };
}

/**
 * Rewrites the search rows of one note, or of every note, from what they say now
 * (title, notes, summary, enhanced note, transcript).
 */
export async function reindexNote(db: Pick<PgDb, "execute">, noteId?: string): Promise<void> {
  await db.execute(sql`
    INSERT INTO notes_search (note_seq, title, body)
    SELECT n.seq, n.title,
           concat_ws(E'\\n', nullif(n.user_written_note, ''), nullif(n.summary, ''), nullif(n.enhanced_note, ''),
                     (SELECT string_agg(t.text, E'\\n' ORDER BY t.position) FROM transcript_segments t WHERE t.note_id = n.id))
    FROM notes n ${noteId === undefined ? sql`` : sql`WHERE n.id = ${noteId}`}
    ON CONFLICT (note_seq) DO UPDATE SET title = excluded.title, body = excluded.body`);
}

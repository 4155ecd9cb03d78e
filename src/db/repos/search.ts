// Full-text search on SQLite (FTS5, bm25): notes ranked as a whole (notes_fts: title
// weighted above what the note says), the moments within a note (segments_fts: one
// row per transcript segment), and knowledge-base articles. src/db/pg/search.ts
// answers the same on PostgreSQL.
import { isStopword, type SearchQuery } from "../../core/search-query.js";
import type { Db } from "../open.js";
import type { NoteView } from "../../core/access.js";

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

/** Which notes a search may return: what the access policy lets the caller see (`noteView`), and the filters. */
export interface NoteScope extends NoteView {
  fromDate?: number;
  toDate?: number;
  folderIds?: string[];
  /** Lower-cased. */
  participantEmail?: string;
  /** A speaker label or a name given to one, lower-cased: only notes where they speak. */
  speaker?: string;
}

export interface NoteRanking extends NoteScope {
  query: SearchQuery;
  /** Every term present (AND), or any (OR). */
  match: "all" | "any";
  /** Words match as prefixes too (default), or only as whole words (by stem). */
  prefix?: boolean;
  limit: number;
  /**
   * How many matching notes, newest first, are ranked at most: a word found in most
   * meetings costs the same as a rare one, and the ranking then covers the newest.
   */
  cap: number;
}

export interface RankedNote {
  id: string;
  seq: number;
  title: string;
  createdAt: number;
  /** Lower is better. */
  rank: number;
}

export interface MomentHit {
  position: number;
  startSec: number;
  /** The engine's label (names are applied by the caller). */
  speaker: string;
  /** The segment's words around the match, the matched terms in «». */
  text: string;
  rank: number;
}

/**
 * A term as FTS5 query syntax: a phrase as written; a word by its stem (the porter
 * tokenizer stems query words too: "deployment" finds "deployments"), or, as a prefix
 * query, by the start of its stem ("budg" finds "budget"). Prefix queries cost far more
 * on common words, so callers ask for them only when whole words found too little.
 * Words are letters and digits only.
 */
const ftsTerm = (t: SearchQuery["terms"][number], prefix: boolean) =>
  t.phrase ? `"${t.words.join(" ")}"` : `"${t.words[0]}"${prefix && !isStopword(t.words[0]) ? "*" : ""}`;
export const ftsMatch = (q: SearchQuery, match: "all" | "any", prefix = true) =>
  q.terms.map((t) => ftsTerm(t, prefix)).join(match === "all" ? " AND " : " OR ");

// The policy's view (workspace, only-me, private folders) and then the search's filters.
const SCOPE_SQL = `n.workspace_id = @ws AND (n.visibility <> 'only-me' OR n.created_by = @viewer)
      AND (@hidden IS NULL OR NOT EXISTS (SELECT 1 FROM note_folders hf WHERE hf.note_id = n.id AND hf.folder_id IN (SELECT value FROM json_each(@hidden))))
      AND (@from IS NULL OR n.created_at >= @from) AND (@to IS NULL OR n.created_at < @to)
      AND (@folders IS NULL OR n.id IN (SELECT note_id FROM note_folders WHERE folder_id IN (SELECT value FROM json_each(@folders))))
      AND (@email IS NULL OR n.id IN (SELECT note_id FROM note_participant_emails WHERE email_norm = @email))
      AND (@speaker IS NULL OR EXISTS (SELECT 1 FROM transcript_segments t WHERE t.note_id = n.id AND (lower(t.speaker) = @speaker
           OR t.speaker IN (SELECT label FROM note_speakers ns WHERE ns.note_id = n.id AND lower(ns.name) = @speaker))))`;

const scopeParams = (s: NoteScope) => ({
  ws: s.workspaceId,
  viewer: s.viewerUserId,
  hidden: s.hiddenFolderIds.length ? JSON.stringify(s.hiddenFolderIds) : null,
  from: s.fromDate ?? null,
  to: s.toDate ?? null,
  folders: s.folderIds?.length ? JSON.stringify(s.folderIds) : null,
  email: s.participantEmail ?? null,
  speaker: s.speaker ?? null,
});

export function searchRepo(db: Db) {
  // The newest `cap` matches in scope (FTS5 walks rowids, which follow notes.seq, from
  // the top), then ranked by bm25: the cost is bounded however common the words are.
  const rankStmt = db.$client.prepare(`
    SELECT id, seq, title, createdAt, rank FROM (
      SELECT n.id, n.seq, n.title, n.created_at AS createdAt, bm25(notes_fts, 4.0, 1.0) AS rank
      FROM notes_fts JOIN notes n ON n.seq = notes_fts.rowid
      WHERE notes_fts MATCH @match AND ${SCOPE_SQL}
      ORDER BY notes_fts.rowid DESC LIMIT @cap)
    ORDER BY rank, id LIMIT @limit`);
  // A note's matching segments with their snippets: rowids within its range (no bm25,
  // whose global statistics cost a scan of a common word's whole posting list).
  const momentIdsStmt = db.$client.prepare(
    `SELECT rowid, snippet(segments_fts, 0, '«', '»', '…', 24) AS text FROM segments_fts
     WHERE segments_fts MATCH @match AND rowid BETWEEN (@seq << 20) AND (@seq << 20) + 1048575 LIMIT @limit`,
  );
  const momentStmt = db.$client.prepare(
    `SELECT position, start_sec AS startSec, speaker FROM transcript_segments WHERE note_id = @id AND position = @position`,
  );
  const snippetStmt = db.$client
    .prepare(
      `SELECT snippet(notes_fts, -1, '«', '»', '…', 16) FROM notes_fts WHERE notes_fts MATCH @match AND rowid = @seq`,
    )
    .pluck();
  const segmentAtStmt = db.$client.prepare(
    `SELECT position, start_sec AS startSec, speaker, text FROM transcript_segments WHERE note_id = ? AND start_sec >= ? ORDER BY note_id, position LIMIT 1`,
  );
  // Driven by the ids (CROSS JOIN keeps json_each outermost): left to itself, the
  // planner would walk the whole workspace's notes by their workspace index instead.
  const inScopeStmt = db.$client.prepare(`
    SELECT n.id, n.seq, n.title, n.created_at AS createdAt, 0 AS rank
    FROM json_each(@ids) j CROSS JOIN notes n ON n.id = j.value WHERE ${SCOPE_SQL}`);
  const articlesStmt = db.$client.prepare(`
    SELECT a.id, a.title, a.created_at AS createdAt,
           snippet(knowledge_fts, -1, '«', '»', '…', 16) AS snippet,
           bm25(knowledge_fts, 0, 0, 4.0, 1.0) AS rank
    FROM knowledge_fts JOIN knowledge_articles a ON a.id = knowledge_fts.article_id
    WHERE knowledge_fts MATCH @match AND knowledge_fts.workspace_id = @ws
    ORDER BY rank LIMIT @limit`);
  return {
    rankNotes(q: NoteRanking): RankedNote[] {
      if (!q.query.terms.length) return [];
      return rankStmt.all({
        match: ftsMatch(q.query, q.match, q.prefix ?? true),
        cap: q.cap,
        limit: q.limit,
        ...scopeParams(q),
      }) as RankedNote[];
    },
    /** Which of these notes the scope lets through, in the order given. */
    inScope(scope: NoteScope, ids: string[]): RankedNote[] {
      if (!ids.length) return [];
      const found = new Map(
        (inScopeStmt.all({ ids: JSON.stringify(ids), ...scopeParams(scope) }) as RankedNote[]).map((n) => [n.id, n]),
      );
      return ids.flatMap((id) => found.get(id) ?? []);
    },
    /**
     * The segments of one note that hold the terms: those with every term first, then
     * those with any, in the order they were said; whole words first, prefixes if none.
     */
    moments(note: { id: string; seq: number }, query: SearchQuery, limit: number): MomentHit[] {
      if (!query.terms.length) return [];
      const ids = (match: string, n: number) =>
        momentIdsStmt.all({ match, seq: note.seq, limit: n }) as { rowid: number; text: string }[];
      let found: { rowid: number; text: string }[] = [];
      for (const prefix of [false, true]) {
        const seen = new Set<number>();
        for (const mode of query.terms.length > 1 ? (["all", "any"] as const) : (["any"] as const)) {
          if (seen.size >= limit) break;
          for (const hit of ids(ftsMatch(query, mode, prefix), limit)) {
            if (seen.has(hit.rowid) || seen.size >= limit) continue;
            seen.add(hit.rowid);
            found.push(hit);
          }
        }
        if (found.length) break;
      }
      const base = note.seq * 1048576;
      return found.flatMap(({ rowid, text }) => {
        const segment = momentStmt.get({ id: note.id, position: rowid - base }) as
          Omit<MomentHit, "text" | "rank"> | undefined;
        return segment ? [{ ...segment, text, rank: 0 }] : [];
      });
    },
    /** Where in the note (title, notes, summary) the terms are, when no segment holds them. */
    noteSnippet(seq: number, query: SearchQuery): string | null {
      if (!query.terms.length) return null;
      for (const prefix of [false, true]) {
        const snippet = snippetStmt.get({ seq, match: ftsMatch(query, "any", prefix) }) as string | undefined;
        if (snippet) return snippet;
      }
      return null;
    },
    /** The segment that starts at (or first after) a time: where a transcript passage begins. */
    segmentAt(
      noteId: string,
      startSec: number,
    ): { position: number; startSec: number; speaker: string; text: string } | null {
      return (
        (segmentAtStmt.get(noteId, startSec) as
          { position: number; startSec: number; speaker: string; text: string } | undefined) ?? null
      );
    },
    articles(q: { workspaceId: string; words: string[]; limit: number }): ArticleHit[] {
      if (!q.words.length) return [];
      return articlesStmt.all({
        match: q.words.map((w) => `"${w}"*`).join(" OR "),
        ws: q.workspaceId,
        limit: q.limit,
      }) as ArticleHit[];
    },
  };
}

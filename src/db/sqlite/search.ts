// Full-text search on SQLite (FTS5, bm25): notes ranked as a whole (notes_fts: title
// weighted above what the note says), the moments within a note (segments_fts: one
// row per transcript segment), and knowledge-base articles. src/db/pg/search.ts
// answers the same on PostgreSQL.
import { sql, type SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { isStopword, type SearchQuery } from "../../core/search-query.js";
import type { Db } from "../open.js";
import type { Synchronous } from "../stores/synchronous.js";
import { noteScopeSql, type IdSet } from "../stores/note-rules.js";
import type {
  ArticleHit,
  MomentHit,
  MomentsOf,
  NoteMatches,
  NoteRanking,
  NoteScope,
  RankedNote,
  SearchStore,
  SegmentAt,
} from "../stores/search-store.js";
import { segmentKey } from "../stores/search-store.js";

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

/** Whole words, then prefixes, unless the note was found by whole words only (see MomentsOf). */
const prefixPasses = (note: MomentsOf) => (note.prefix === false ? [false] : [false, true]);

/** A set of ids as one JSON parameter, expanded by json_each: the same statement for any count. */
const jsonSet: IdSet = (ids) => sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;

export function searchRepo(db: Db): Synchronous<SearchStore> {
  // Statements that carry the scope are rendered from SQL built per call (its clauses
  // depend on which filters are set) and prepared once per distinct text.
  const dialect = new SQLiteSyncDialect();
  const prepared = new Map<string, ReturnType<typeof db.$client.prepare>>();
  function all<T>(query: SQL): T[] {
    const { sql: text, params } = dialect.sqlToQuery(query);
    let stmt = prepared.get(text);
    if (!stmt) prepared.set(text, (stmt = db.$client.prepare(text)));
    return stmt.all(params) as T[];
  }
  // A note's matching segments with their snippets: rowids within its range (no bm25,
  // whose global statistics cost a scan of a common word's whole posting list).
  const momentIdsStmt = db.$client.prepare(
    `SELECT rowid, snippet(segments_fts, 0, '«', '»', '…', 24) AS text FROM segments_fts
     WHERE segments_fts MATCH @match AND rowid BETWEEN (@seq << 20) AND (@seq << 20) + 1048575 LIMIT @limit`,
  );
  const momentStmt = db.$client.prepare(
    `SELECT position, start_sec AS startSec, speaker FROM transcript_segments WHERE note_id = @id AND position = @position`,
  );
  // The CAST is what keeps this to one note. The driver binds a JavaScript number as a
  // REAL, and FTS5 takes `rowid = ?` beside a MATCH as its own constraint (SQLite does
  // not check it again) but applies it only to an INTEGER: given 2.0 it returns every
  // note in the index that matches, of every workspace, and the first would be shown.
  const snippetStmt = db.$client.prepare(
    `SELECT rowid, snippet(notes_fts, -1, '«', '»', '…', 16) AS snippet FROM notes_fts
     WHERE notes_fts MATCH @match AND rowid = CAST(@seq AS INTEGER)`,
  );
  const segmentAtStmt = db.$client.prepare(
    `SELECT position, start_sec AS startSec, speaker, text FROM transcript_segments WHERE note_id = ? AND start_sec >= ? ORDER BY note_id, position LIMIT 1`,
  );
  const articlesStmt = db.$client.prepare(`
    SELECT a.id, a.title, a.created_at AS createdAt,
           snippet(knowledge_fts, -1, '«', '»', '…', 16) AS snippet,
           bm25(knowledge_fts, 0, 0, 4.0, 1.0) AS rank
    FROM knowledge_fts JOIN knowledge_articles a ON a.id = knowledge_fts.article_id
    WHERE knowledge_fts MATCH @match AND knowledge_fts.workspace_id = @ws
    ORDER BY rank LIMIT @limit`);
  const repo = {
    rankNotes(q: NoteRanking): RankedNote[] {
      if (!q.query.terms.length) return [];
      // The newest `cap` matches in scope (FTS5 walks rowids, which follow notes.seq, from
      // the top), then ranked by bm25: the cost is bounded however common the words are.
      return all<RankedNote>(sql`
        SELECT id, seq, title, createdAt, rank FROM (
          SELECT n.id, n.seq, n.title, n.created_at AS createdAt, bm25(notes_fts, 4.0, 1.0) AS rank
          FROM notes_fts JOIN notes n ON n.seq = notes_fts.rowid
          WHERE notes_fts MATCH ${ftsMatch(q.query, q.match, q.prefix ?? true)} AND ${noteScopeSql(q, jsonSet)}
          ORDER BY notes_fts.rowid DESC LIMIT ${q.cap})
        ORDER BY rank, id LIMIT ${q.limit}`);
    },
    /** Which of these notes the scope lets through, in the order given. */
    inScope(scope: NoteScope, ids: string[]): RankedNote[] {
      if (!ids.length) return [];
      // Driven by the ids (CROSS JOIN keeps json_each outermost): left to itself, the
      // planner would walk the whole workspace's notes by their workspace index instead.
      const found = new Map(
        all<RankedNote>(sql`
          SELECT n.id, n.seq, n.title, n.created_at AS createdAt, 0 AS rank
          FROM json_each(${JSON.stringify(ids)}) j CROSS JOIN notes n ON n.id = j.value
          WHERE ${noteScopeSql(scope, jsonSet)}`).map((n) => [n.id, n]),
      );
      return ids.flatMap((id) => found.get(id) ?? []);
    },
    /**
     * The segments of one note that hold the terms: those with every term first, then
     * those with any, in the order they were said; whole words first, prefixes if none.
     */
    moments(note: MomentsOf, query: SearchQuery, limit: number): MomentHit[] {
      if (!query.terms.length) return [];
      const ids = (match: string, n: number) =>
        momentIdsStmt.all({ match, seq: note.seq, limit: n }) as { rowid: number; text: string }[];
      let found: { rowid: number; text: string }[] = [];
      for (const prefix of prefixPasses(note)) {
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
        // Only this note's range: another note's segment is never shown for this one.
        if (rowid < base || rowid - base >= 1048576) return [];
        const segment = momentStmt.get({ id: note.id, position: rowid - base }) as
          Omit<MomentHit, "text" | "rank"> | undefined;
        return segment ? [{ ...segment, text, rank: 0 }] : [];
      });
    },
    /** Where in the note (title, notes, summary) the terms are, when no segment holds them. */
    noteSnippet(note: MomentsOf, query: SearchQuery): string | null {
      if (!query.terms.length) return null;
      for (const prefix of prefixPasses(note)) {
        const row = snippetStmt.get({ seq: note.seq, match: ftsMatch(query, "any", prefix) }) as
          { rowid: number; snippet: string } | undefined;
        // Another note's words are never shown for this one, whatever the index answers.
        if (row?.snippet && row.rowid === note.seq) return row.snippet;
      }
      return null;
    },
    /** Each note's moments, else its snippet: a loop, since on SQLite every statement is a function call. */
    pageMatches(notes: MomentsOf[], query: SearchQuery, limit: number): Map<string, NoteMatches> {
      return new Map(
        notes.map((n) => {
          const moments = repo.moments(n, query, limit);
          return [n.id, { moments, snippet: moments.length ? null : repo.noteSnippet(n, query) }];
        }),
      );
    },
    /** The segment that starts at (or first after) a time: where a transcript passage begins. */
    segmentsAt(at: { noteId: string; startSec: number }[]): Map<string, SegmentAt> {
      const out = new Map<string, SegmentAt>();
      for (const { noteId, startSec } of at) {
        const found = segmentAtStmt.get(noteId, startSec) as SegmentAt | undefined;
        if (found) out.set(segmentKey(noteId, startSec), found);
      }
      return out;
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
  return repo;
}

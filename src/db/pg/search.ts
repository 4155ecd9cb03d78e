// Full-text search on PostgreSQL, answering what the SQLite repository answers with
// FTS5: words by prefix ('word:*') and phrases ('a <-> b'), English stemming, the
// title weighted above the body (setweight A/B), ranked by ts_rank_cd, with «marked»
// snippets. notes_search holds one row per note, rewritten by reindexNote whenever a
// part changes; the moments come from a GIN index over the transcript segments.
import { sql } from "drizzle-orm";
import { isStopword, type SearchQuery } from "../../core/search-query.js";
import { noteScopeSql, type IdSet } from "../stores/note-rules.js";
import type { NoteScope, SearchStore, SegmentAt } from "../stores/search-store.js";
import type { PgQueryable } from "./open.js";

/** Terms as a tsquery: words are letters and digits only, safe inside one. */
const tsTerm = (t: SearchQuery["terms"][number], prefix: boolean) =>
  t.phrase ? `(${t.words.join(" <-> ")})` : `${t.words[0]}${prefix && !isStopword(t.words[0]) ? ":*" : ""}`;
const tsMatch = (q: SearchQuery, match: "all" | "any", prefix = true) =>
  q.terms.map((t) => tsTerm(t, prefix)).join(match === "all" ? " & " : " | ");
const HEADLINE = "StartSel=«, StopSel=», MaxWords=16, MinWords=6, ShortWord=2, HighlightAll=false";
const MOMENT_HEADLINE = "StartSel=«, StopSel=», MaxWords=24, MinWords=8, ShortWord=2, HighlightAll=false";
const articleVector = sql`(setweight(to_tsvector('english', a.title), 'A') || setweight(to_tsvector('english', a.content), 'B'))`;
const segmentVector = sql`to_tsvector('english', t.text)`;

/** A set of ids as a parenthesised list of parameters. */
const listSet: IdSet = (ids) => sql`${ids}`;
const scope = (s: NoteScope) => noteScopeSql(s, listSet);

export function pgSearchRepo(db: PgQueryable): SearchStore {
  return {
    async rankNotes(q) {
      if (!q.query.terms.length) return [];
      // The newest `cap` matches, then ranked: bounded however common the words are.
      // A tsvector keeps at most 256 positions of a word, so in a long transcript a
      // phrase said late may be lost from the note's row: its segment still holds it.
      const { rows } = await db.execute<{
        id: string;
        seq: string;
        title: string;
        createdAt: string;
        rank: number;
      }>(sql`
        SELECT id, seq, title, "createdAt", rank FROM (
          SELECT n.id, n.seq, n.title, n.created_at AS "createdAt", -ts_rank_cd(s.tsv, query) AS rank
          FROM notes_search s JOIN notes n ON n.seq = s.note_seq, to_tsquery('english', ${tsMatch(q.query, q.match, q.prefix ?? true)}) AS query
          WHERE n.seq IN (SELECT note_seq FROM notes_search WHERE tsv @@ query
                          UNION SELECT n2.seq FROM transcript_segments t JOIN notes n2 ON n2.id = t.note_id WHERE ${segmentVector} @@ query)
            AND ${scope(q)}
          ORDER BY n.seq DESC LIMIT ${q.cap}) c
        ORDER BY rank, id LIMIT ${q.limit}`);
      return rows.map((r) => ({ ...r, seq: Number(r.seq), createdAt: Number(r.createdAt), rank: Number(r.rank) }));
    },

    async inScope(s, ids) {
      if (!ids.length) return [];
      const { rows } = await db.execute<{ id: string; seq: string; title: string; createdAt: string }>(sql`
        SELECT n.id, n.seq, n.title, n.created_at AS "createdAt" FROM notes n WHERE n.id IN ${ids} AND ${scope(s)}`);
      const found = new Map(
        rows.map((r) => [r.id, { ...r, seq: Number(r.seq), createdAt: Number(r.createdAt), rank: 0 }]),
      );
      return ids.flatMap((id) => found.get(id) ?? []);
    },

    async moments(note, query, limit) {
      if (!query.terms.length) return [];
      const { rows } = await db.execute<{
        position: number;
        startSec: number;
        speaker: string;
        text: string;
        rank: number;
      }>(sql`
        SELECT t.position, t.start_sec AS "startSec", t.speaker, ts_headline('english', t.text, query, ${MOMENT_HEADLINE}) AS text,
               -ts_rank_cd(${segmentVector}, query) AS rank
        FROM transcript_segments t, to_tsquery('english', ${tsMatch(query, "any")}) AS query
        WHERE t.note_id = ${note.id} AND ${segmentVector} @@ query
        ORDER BY rank, t.position LIMIT ${limit}`);
      return rows.map((r) => ({
        ...r,
        position: Number(r.position),
        startSec: Number(r.startSec),
        rank: Number(r.rank),
      }));
    },

    async noteSnippet(seq, query) {
      if (!query.terms.length) return null;
      const { rows } = await db.execute<{ snippet: string }>(sql`
        SELECT ts_headline('english', s.title || E'\\n' || s.body, query, ${HEADLINE}) AS snippet
        FROM notes_search s, to_tsquery('english', ${tsMatch(query, "any")}) AS query
        WHERE s.note_seq = ${seq} AND s.tsv @@ query`);
      return rows[0]?.snippet ?? null;
    },

    async segmentAt(noteId, startSec) {
      const { rows } = await db.execute<SegmentAt & Record<string, unknown>>(sql`
        SELECT position, start_sec AS "startSec", speaker, text FROM transcript_segments
        WHERE note_id = ${noteId} AND start_sec >= ${startSec} ORDER BY position LIMIT 1`);
      return rows[0] ? { ...rows[0], position: Number(rows[0].position), startSec: Number(rows[0].startSec) } : null;
    },

    async articles(q) {
      if (!q.words.length) return [];
      const { rows } = await db.execute<{
        id: string;
        title: string;
        createdAt: string;
        snippet: string;
        rank: number;
      }>(sql`
        SELECT a.id, a.title, a.created_at AS "createdAt",
               ts_headline('english', a.title || E'\\n' || a.content, query, ${HEADLINE}) AS snippet,
               -ts_rank_cd(${articleVector}, query) AS rank
        FROM knowledge_articles a, to_tsquery('english', ${q.words.map((w) => `${w}:*`).join(" | ")}) AS query
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
export async function reindexNote(db: Pick<PgQueryable, "execute">, noteId?: string): Promise<void> {
  await db.execute(sql`
    INSERT INTO notes_search (note_seq, title, body)
    SELECT n.seq, n.title,
           concat_ws(E'\\n', nullif(n.user_written_note, ''), nullif(n.summary, ''), nullif(n.enhanced_note, ''),
                     (SELECT string_agg(t.text, E'\\n' ORDER BY t.position) FROM transcript_segments t WHERE t.note_id = n.id))
    FROM notes n ${noteId === undefined ? sql`` : sql`WHERE n.id = ${noteId}`}
    ON CONFLICT (note_seq) DO UPDATE SET title = excluded.title, body = excluded.body`);
}

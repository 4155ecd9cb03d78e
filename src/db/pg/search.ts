// Full-text search on PostgreSQL, answering what the SQLite repository answers with
// FTS5: words by prefix ('word:*') and phrases ('a <-> b'), English stemming, the
// title weighted above the body (setweight A/B), ranked by ts_rank_cd, with «marked»
// snippets. notes_search holds one row per note, rewritten by reindexNote whenever a
// part changes; the moments come from each segment's stored tsvector.
import { sql, type SQL } from "drizzle-orm";
import { isStopword, type SearchQuery } from "../../core/search-query.js";
import { noteScopeSql, type IdSet } from "../stores/note-rules.js";
import {
  segmentKey,
  type MomentHit,
  type NoteMatches,
  type NoteScope,
  type SearchStore,
  type SegmentAt,
} from "../stores/search-store.js";
import type { PgQueryable } from "./open.js";
import { CITATION_SQL_PATTERN } from "../../shared/note-links.js";

/** Terms as a tsquery: words are letters and digits only, safe inside one. */
const tsTerm = (t: SearchQuery["terms"][number], prefix: boolean) =>
  t.phrase ? `(${t.words.join(" <-> ")})` : `${t.words[0]}${prefix && !isStopword(t.words[0]) ? ":*" : ""}`;
const tsMatch = (q: SearchQuery, match: "all" | "any", prefix = true) =>
  q.terms.map((t) => tsTerm(t, prefix)).join(match === "all" ? " & " : " | ");
/** The query with each phrase loosened to its words, all present anywhere: what a phrase match implies. */
const looseMatch = (q: SearchQuery, match: "all" | "any", prefix = true) =>
  q.terms.map((t) => (t.phrase ? `(${t.words.join(" & ")})` : tsTerm(t, prefix))).join(match === "all" ? " & " : " | ");
/**
 * Past this many characters a note's tsvector may have lost positions (well under
 * the 16,383 positions and 256 per word it keeps): its phrases are checked in the segments.
 */
const LONG_BODY = 20_000;
const HEADLINE = "StartSel=«, StopSel=», MaxWords=16, MinWords=6, ShortWord=2, HighlightAll=false";
const MOMENT_HEADLINE = "StartSel=«, StopSel=», MaxWords=24, MinWords=8, ShortWord=2, HighlightAll=false";
const articleVector = sql`(setweight(to_tsvector('english', a.title), 'A') || setweight(to_tsvector('english', a.content), 'B'))`;
/** A segment's words (a stored column: computing them again for each search cost more than the search). */
const segmentVector = sql`t.tsv`;

/**
 * A note's segments that hold the terms (of a `query` in scope), best first, with the
 * terms marked: one note's moments, and each note's in a page of results.
 */
const segmentMoments = (noteId: SQL, limit: number) => sql`
  SELECT t.position, t.start_sec AS "startSec", t.speaker, ts_headline('english', t.text, query, ${MOMENT_HEADLINE}) AS text,
         -ts_rank_cd(${segmentVector}, query) AS rank
  FROM transcript_segments t WHERE t.note_id = ${noteId} AND ${segmentVector} @@ query
  ORDER BY rank, t.position LIMIT ${limit}`;
type MomentRow = { position: number; startSec: number; speaker: string; text: string; rank: number };
const toMoment = (r: MomentRow): MomentHit => ({
  position: Number(r.position),
  startSec: Number(r.startSec),
  speaker: r.speaker,
  text: r.text,
  rank: Number(r.rank),
});

/** A set of ids as a parenthesised list of parameters. */
const listSet: IdSet = (ids) => sql`${ids}`;
const scope = (s: NoteScope) => noteScopeSql(s, listSet);

export function pgSearchRepo(db: PgQueryable): SearchStore {
  return {
    async rankNotes(q) {
      if (!q.query.terms.length) return [];
      const query = sql`to_tsquery('english', ${tsMatch(q.query, q.match, q.prefix ?? true)})`;
      // A tsvector keeps at most 256 positions of a word and none past 16,383, so in a
      // long transcript a phrase said late may be lost from the note's row, never its
      // words: such notes are found by the words, and the phrase is then confirmed in
      // the segments, which hold every position.
      const phrases = q.query.terms.some((t) => t.phrase);
      const found = phrases
        ? sql`s.tsv @@ to_tsquery('english', ${looseMatch(q.query, q.match, q.prefix ?? true)})
              AND (s.tsv @@ ${query} OR (length(s.body) > ${LONG_BODY} AND EXISTS (
                SELECT 1 FROM notes n JOIN transcript_segments t ON t.note_id = n.id
                WHERE n.seq = s.note_seq AND ${segmentVector} @@ ${query})))`
        : sql`s.tsv @@ ${query}`;
      // The newest `cap` matches in scope, then ranked (the rank read for those alone):
      // bounded however common the words are. Which way to find them is the planner's
      // choice where it can judge how common the words are, one word or any of several:
      // walking the notes newest first for a common word, the GIN index for a rare one.
      // Words that must all be present (or a phrase) are estimated as if independent,
      // far rarer than words said together are, and the planner then joins every match
      // to a scan of all notes: for those the index goes first, its matches are put
      // newest first, and only then is each looked up by its key until `cap` are in
      // scope (the OFFSET 0s keep that order of work as written). A phrase in one
      // meeting of ten among 100,000 is 10,000 matches but only about `cap` lookups.
      // Ranked by the words the search already read where it found them at most `cap` at
      // a time (a second read of each note's words cost a quarter of a common word's
      // search); else by each of the `cap` read again, which an unbounded sort of every
      // match's words would cost more than.
      const ranked =
        phrases || (q.query.terms.length > 1 && q.match === "all")
          ? sql`SELECT c.id, c.seq, c.title, c.created_at AS "createdAt", r.rank
                FROM (SELECT n.id, n.seq, n.title, n.created_at
                      FROM (SELECT s.note_seq FROM notes_search s WHERE ${found} ORDER BY s.note_seq DESC OFFSET 0) s,
                           LATERAL (SELECT * FROM notes n WHERE n.seq = s.note_seq OFFSET 0) n
                      WHERE ${scope(q)} ORDER BY s.note_seq DESC LIMIT ${q.cap}) c,
                     LATERAL (SELECT -ts_rank_cd(s.tsv, ${query}) AS rank FROM notes_search s WHERE s.note_seq = c.seq) r
                ORDER BY r.rank, c.id LIMIT ${q.limit}`
          : sql`SELECT c.id, c.seq, c.title, c.created_at AS "createdAt", -ts_rank_cd(c.tsv, ${query}) AS rank
                FROM (SELECT n.id, n.seq, n.title, n.created_at, s.tsv FROM notes n JOIN notes_search s ON s.note_seq = n.seq
                      WHERE ${found} AND ${scope(q)} ORDER BY n.seq DESC LIMIT ${q.cap}) c
                ORDER BY rank, c.id LIMIT ${q.limit}`;
      const { rows } = await db.execute<{
        id: string;
        seq: string;
        title: string;
        createdAt: string;
        rank: number;
      }>(ranked);
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
      const { rows } = await db.execute<MomentRow>(sql`
        SELECT m.* FROM to_tsquery('english', ${tsMatch(query, "any", note.prefix !== false)}) AS query,
        LATERAL (${segmentMoments(sql`${note.id}`, limit)}) m`);
      return rows.map(toMoment);
    },

    async pageMatches(notes, query, limit) {
      const out = new Map<string, NoteMatches>(notes.map((n) => [n.id, { moments: [], snippet: null }]));
      if (!query.terms.length || !notes.length) return out;
      // One statement for the page: each note's best segments (its rows), and where no
      // segment holds the terms, the note's own snippet (a row with no position). Each
      // note's terms are whole or prefixes as it was found (see MomentsOf).
      const page = notes.map((n) => ({ id: n.id, seq: n.seq, prefix: n.prefix !== false }));
      const terms = sql`to_tsquery('english', CASE WHEN p.prefix THEN ${tsMatch(query, "any")} ELSE ${tsMatch(query, "any", false)} END)`;
      const { rows } = await db.execute<{ id: string; position: number | null } & Omit<MomentRow, "position">>(sql`
        WITH page AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(page)}::jsonb) AS p(id text, seq bigint, prefix boolean)),
             moment AS (
               SELECT p.id, m.position, m."startSec", m.speaker, m.text, m.rank
               FROM page p, ${terms} AS query,
               LATERAL (${segmentMoments(sql`p.id`, limit)}) m)
        SELECT * FROM moment
        UNION ALL
        SELECT p.id, NULL, NULL, NULL, ts_headline('english', s.title || E'\\n' || s.body, query, ${HEADLINE}), NULL
        FROM page p JOIN notes_search s ON s.note_seq = p.seq, ${terms} AS query
        WHERE s.tsv @@ query AND p.id NOT IN (SELECT id FROM moment)`);
      for (const r of rows) {
        const entry = out.get(r.id)!;
        if (r.position === null) entry.snippet = r.text;
        else entry.moments.push(toMoment({ ...r, position: r.position }));
      }
      for (const entry of out.values()) entry.moments.sort((a, b) => a.rank - b.rank || a.position - b.position);
      return out;
    },

    async noteSnippet(note, query) {
      if (!query.terms.length) return null;
      const { rows } = await db.execute<{ snippet: string }>(sql`
        SELECT ts_headline('english', s.title || E'\\n' || s.body, query, ${HEADLINE}) AS snippet
        FROM notes_search s, to_tsquery('english', ${tsMatch(query, "any", note.prefix !== false)}) AS query
        WHERE s.note_seq = ${note.seq} AND s.tsv @@ query`);
      return rows[0]?.snippet ?? null;
    },

    /** One statement for a page: each note's segment at or after its time. */
    async segmentsAt(at) {
      const out = new Map<string, SegmentAt>();
      if (!at.length) return out;
      const { rows } = await db.execute<SegmentAt & { noteId: string; asked: string } & Record<string, unknown>>(sql`
        SELECT q.note_id AS "noteId", q.asked, s.position, s.start_sec AS "startSec", s.speaker, s.text
        FROM unnest(${sql.param(at.map((a) => a.noteId))}::text[], ${sql.param(at.map((a) => a.startSec))}::bigint[]) AS q(note_id, asked)
        CROSS JOIN LATERAL (
          SELECT position, start_sec, speaker, text FROM transcript_segments t
          WHERE t.note_id = q.note_id AND t.start_sec >= q.asked ORDER BY position LIMIT 1) s`);
      for (const r of rows)
        out.set(segmentKey(r.noteId, Number(r.asked)), {
          position: Number(r.position),
          startSec: Number(r.startSec),
          speaker: r.speaker,
          text: r.text,
        });
      return out;
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
 * Who was there, as src/db/stores/note-rules.ts participantsText writes it (and
 * drizzle/pg/0019), with each address's words after it: PostgreSQL's parser keeps an
 * address as one word, where SQLite's splits it, and a search for "studio" or
 * "zoe@studio.example" (split into its words) should find it on both.
 */
const PARTICIPANTS_TEXT = sql.raw(
  `nullif((SELECT string_agg(nullif(trim(concat_ws(' ', p->>'name', p->>'email', nullif(translate(p->>'email', '@.', '  '), ''))), ''), ', ' ORDER BY i) FROM json_array_elements(n.participants) WITH ORDINALITY AS x(p, i)), '')`,
);

/** The column's text without its citations' link markup (src/shared/note-links.ts withoutCitations). */
const plain = (column: SQL) => sql`regexp_replace(${column}, ${CITATION_SQL_PATTERN}, '', 'g')`;

/**
 * Rewrites the search rows of one note, or of every note, from what they say now
 * (title, notes, summary, enhanced note, transcript, who was there).
 */
export async function reindexNote(db: Pick<PgQueryable, "execute">, noteId?: string): Promise<void> {
  await db.execute(sql`
    INSERT INTO notes_search (note_seq, title, body)
    SELECT n.seq, n.title,
           concat_ws(E'\\n', nullif(n.user_written_note, ''), nullif(${plain(sql`n.summary`)}, ''), nullif(${plain(sql`n.enhanced_note`)}, ''),
                     (SELECT string_agg(t.text, E'\\n' ORDER BY t.position) FROM transcript_segments t WHERE t.note_id = n.id),
                     ${PARTICIPANTS_TEXT})
    FROM notes n ${noteId === undefined ? sql`` : sql`WHERE n.id = ${noteId}`}
    ON CONFLICT (note_seq) DO UPDATE SET title = excluded.title, body = excluded.body`);
}

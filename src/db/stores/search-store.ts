// The search store: notes ranked as a whole, the moments within a note, and
// knowledge-base articles, found by their words (sqlite/search.ts on SQLite with FTS5,
// pg/search.ts on PostgreSQL with tsvector). What a search may return is the access
// policy's `NoteView` and the search's filters, applied through note-rules.ts.
import type { NoteView } from "../../core/access.js";
import type { SearchQuery } from "../../core/search-query.js";

export interface ArticleHit {
  id: string;
  title: string;
  createdAt: number;
  snippet: string;
  rank: number;
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
 * A note whose moments are looked for. `prefix: false` keeps the terms whole: the note
 * was not found by a prefix of them (by whole words, or by meaning), and a prefix
 * lookup over a common word costs far more than a whole one. Without it, whole words
 * are tried first, then prefixes.
 */
export interface MomentsOf {
  id: string;
  seq: number;
  prefix?: boolean;
}

/** The key of a note's time in segmentsAt's answer. */
export const segmentKey = (noteId: string, startSec: number) => `${noteId}@${startSec}`;

export interface SegmentAt {
  position: number;
  startSec: number;
  speaker: string;
  text: string;
}

/** What a page of results shows of one note: its moments, else where in the note the terms are. */
export interface NoteMatches {
  moments: MomentHit[];
  /** Only for a note with no moment. */
  snippet: string | null;
}

export interface SearchStore {
  /** The best notes for a query within the scope, best first (the newest `cap` matches ranked). */
  rankNotes(q: NoteRanking): Promise<RankedNote[]>;
  /** Which of these notes the scope lets through, in the order given. */
  inScope(scope: NoteScope, ids: string[]): Promise<RankedNote[]>;
  /** The segments of one note that hold the terms, with the terms marked «». */
  moments(note: MomentsOf, query: SearchQuery, limit: number): Promise<MomentHit[]>;
  /** `moments`, else `noteSnippet`, of every note of a page at once (keyed by note id). */
  pageMatches(notes: MomentsOf[], query: SearchQuery, limit: number): Promise<Map<string, NoteMatches>>;
  /** Where in the note (title, notes, summary) the terms are, when no segment holds them. */
  noteSnippet(note: MomentsOf, query: SearchQuery): Promise<string | null>;
  /**
   * For each note and time, the segment that starts at (or first after) it: where a
   * transcript passage begins. A page's at once, keyed by segmentKey; none past the end.
   */
  segmentsAt(at: { noteId: string; startSec: number }[]): Promise<Map<string, SegmentAt>>;
  /** Knowledge-base articles of the workspace holding any of the words (as prefixes), best first. */
  articles(q: { workspaceId: string; words: string[]; limit: number }): Promise<ArticleHit[]>;
}

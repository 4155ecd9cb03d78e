// Links to a note and to a moment in it, in one form wherever they are made: search
// results, ask's citations, MCP tools and the CLI. A moment is `#t=SECONDS`, the
// temporal form of W3C Media Fragments, which the note page reads to seek its player
// and mark the line said then. Seconds rather than a segment's position: a reprocessed
// transcript renumbers its segments, while what was said at 1:05 stays at 1:05.

/** The fragment of a moment, whole seconds from the start of the recording. */
export const momentFragment = (startSec: number) => `#t=${Math.max(0, Math.floor(startSec))}`;

/** The pattern the note page reads a moment from (shared with the page's script). */
export const MOMENT_FRAGMENT = /^#t=([0-9]{1,7})$/;

/** The note's path, at a moment when one is given. */
export const notePath = (noteId: string, startSec?: number | null) =>
  `/notes/${encodeURIComponent(noteId)}${startSec === null || startSec === undefined ? "" : momentFragment(startSec)}`;

/** The note's address on a server, at a moment when one is given. */
export const noteUrl = (base: string, noteId: string, startSec?: number | null) =>
  `${base.replace(/\/+$/, "")}${notePath(noteId, startSec)}`;

/** Seconds from a transcript time ("MM:SS", "H:MM:SS"); null when it is not one. */
export function secondsOf(timestamp: string | null | undefined): number | null {
  if (!timestamp || !/^\d+(:\d{1,2}){1,2}$/.test(timestamp)) return null;
  return timestamp.split(":").reduce((sum, part) => sum * 60 + Number(part), 0);
}

/** A point's citation of a moment inside a note's Markdown, as summaries write it: `[01:05](/notes/{id}#t=65)`. */
export const CITATION = /\[(\d{1,3}(?::\d{2}){1,2})\]\(\/notes\/([^)#\s]+)#t=([0-9]{1,7})\)/g;

/**
 * The Markdown with each citation given the address `link` returns for it (a mail's
 * reader needs the server's full address), or, where it returns null (a reader who
 * cannot open the note), the time alone in brackets.
 */
export function rewriteCitations(markdown: string, link: (noteId: string, seconds: number) => string | null): string {
  return markdown.replace(CITATION, (_all, time: string, id: string, seconds: string) => {
    const to = link(decodeURIComponent(id), Number(seconds));
    return to ? `[${time}](${to})` : `(${time})`;
  });
}

/**
 * The text with its citations' link markup taken out, for what indexes a note's words:
 * `[01:05](/notes/nt_1#t=65)` is where a point came from, not something it says, and
 * left in, a search for "notes" would find every note that cites a moment. The same
 * pattern, in PostgreSQL's form, is CITATION_SQL_PATTERN.
 */
export const withoutCitations = (text: string): string =>
  text.replace(/[ \t]*\[\d{1,3}(?::\d{2}){1,2}\]\(\/notes\/[^)#\s]+#t=[0-9]{1,7}\)/g, "");

/** withoutCitations' pattern for PostgreSQL's regexp_replace (advanced regular expressions). */
export const CITATION_SQL_PATTERN = "[ \\t]*\\[[0-9]{1,3}(:[0-9]{2}){1,2}\\]\\(/notes/[^)#[:space:]]+#t=[0-9]{1,7}\\)";

// The one definition of a Note as the API returns it. Each field says how it is read
// from a row in TypeScript (the single read, events, MCP) and, for the list, how
// SQLite renders it as JSON (the list endpoint's hot path: building list items in SQL
// spares a JS object per row and a parse and re-serialization of stored JSON, which
// together cost more than the query). Key order is this table's order on both paths.
import { iso } from "../../core/clock.js";
import { BRIEF_KEYS, type NoteDto } from "../../shared/schemas/notes.js";
import type { notes } from "../schema/index.js";

type NoteRow = typeof notes.$inferSelect;

/** What a single read adds to the row: its folders, and the full parts lists leave empty. */
export interface NoteParts {
  tags: NoteDto["tags"];
  transcripts: NoteDto["transcripts"];
  /** The public share link, or null. */
  shareUrl: string | null;
  /** The transcript's speakers (single read only). */
  speakers?: NonNullable<NoteDto["speakers"]>;
  /** The template the enhanced note was written with (single read only). */
  template?: NoteDto["template"];
}

interface Field<K extends keyof NoteDto> {
  key: K;
  read: (row: NoteRow, parts: NoteParts) => NoteDto[K];
  /** The list item's SQL expression (over table `notes`), or null where lists leave the field out. */
  listSql: string | null;
}

/** notes.<column> in milliseconds as ISO 8601 with milliseconds, as Date#toISOString writes it. */
const isoSql = (column: string) =>
  `strftime('%Y-%m-%dT%H:%M:%S', notes.${column} / 1000, 'unixepoch') || printf('.%03dZ', notes.${column} % 1000)`;

const STAGES: Record<string, NonNullable<NoteDto["progress"]>["stage"]> = {
  postprocessing: "preparing",
  "transcript-processing": "transcribing",
  summarizing: "summarizing",
};

/** While processing runs: the stage the status names, and the stored percentage of it. */
function progressOf(r: NoteRow): NoteDto["progress"] {
  const stage = STAGES[r.status];
  return stage ? { stage, percent: r.processingProgress ?? null } : null;
}

const field = <K extends keyof NoteDto>(key: K, read: Field<K>["read"], listSql: string | null): Field<K> => ({
  key,
  read,
  listSql,
});

// Plain SQL with qualified names: the tags subquery must not take notes.id for folders.id.
const FIELDS = [
  field("id", (r) => r.id, "notes.id"),
  field("title", (r) => r.title, "notes.title"),
  field("kind", (r) => r.kind, "notes.kind"),
  field("status", (r) => r.status as NoteDto["status"], "notes.status"),
  field("createdAt", (r) => iso(r.createdAt), isoSql("created_at")),
  field("updatedAt", (r) => iso(r.updatedAt), isoSql("updated_at")),
  field("visibility", (r) => r.visibility, "notes.visibility"),
  field(
    "tags",
    (_, p) => p.tags,
    `json((SELECT json_group_array(json_object('id', f.id, 'name', f.name, 'color', f.color) ORDER BY f.name)
           FROM note_folders AS nf JOIN folders AS f ON f.id = nf.folder_id
           WHERE nf.note_id = notes.id))`,
  ),
  field("participants", (r) => r.participants, "json(notes.participants)"),
  field("totalDurationSec", (r) => r.totalDurationSec, "notes.total_duration_sec"),
  field("userWrittenNote", (r) => r.userWrittenNote, "notes.user_written_note"),
  // Lists carry the full parts empty (interface: "Empty in list responses").
  field("enhancedNote", (r) => r.enhancedNote, "''"),
  field("summary", (r) => r.summary, "''"),
  field("transcripts", (_, p) => p.transcripts, "json('[]')"),
  field("calendarEvent", (r) => (r.calendarEvent as NoteDto["calendarEvent"]) ?? null, "json(notes.calendar_event)"),
  field("inputLanguage", (r) => r.inputLanguage, "notes.input_language"),
  field("translationLanguage", (r) => r.translationLanguage, "notes.translation_language"),
  field("meetingApp", (r) => r.meetingApp, "notes.meeting_app"),
  // Extensions of the single read only.
  field("processingError", (r) => r.processingError, null),
  field("processingInfo", (r) => r.processingInfo ?? null, null),
  field("shareUrl", (_, p) => p.shareUrl, null),
  field("processingWarnings", (r) => r.processingWarnings ?? null, null),
  field("progress", (r) => progressOf(r), null),
  field("template", (_, p) => p.template ?? null, null),
  field("speakers", (_, p) => p.speakers ?? [], null),
];

/** A row and its parts as the single-note read returns them. */
export function presentNote(row: NoteRow, parts: NoteParts): NoteDto {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) out[f.key] = f.read(row, parts);
  return out as NoteDto;
}

const jsonObjectSql = (fields: readonly Field<keyof NoteDto>[]) =>
  `json_object(${fields
    .filter((f) => f.listSql !== null)
    .map((f) => `'${f.key}', ${f.listSql}`)
    .join(",\n  ")})`;

/** SQL rendering one row of `notes` as its list item's JSON text. */
export const LIST_ITEM_JSON_SQL = jsonObjectSql(FIELDS);

/**
 * SQL rendering a row as its brief: the web list parses these, and the full items carry
 * the user-written note, which may be long.
 */
export const BRIEF_JSON_SQL = jsonObjectSql(FIELDS.filter((f) => (BRIEF_KEYS as readonly string[]).includes(f.key)));

/** Lists carry the full parts empty (interface: "Empty in list responses"). */
const EMPTY_IN_LISTS: Partial<Record<keyof NoteDto, unknown>> = { enhancedNote: "", summary: "", transcripts: [] };

/**
 * A row as its list item's (or brief's) JSON text, built in JavaScript from the same
 * fields as the SQL above: for databases where the list is not rendered in SQL.
 */
export function listItemJson(row: NoteRow, tags: NoteDto["tags"], projection: "item" | "brief"): string {
  const out: Record<string, unknown> = {};
  const parts: NoteParts = { tags, transcripts: [], shareUrl: null };
  for (const f of FIELDS) {
    if (f.listSql === null) continue;
    if (projection === "brief" && !(BRIEF_KEYS as readonly string[]).includes(f.key)) continue;
    out[f.key] = f.key in EMPTY_IN_LISTS ? EMPTY_IN_LISTS[f.key] : f.read(row, parts);
  }
  return JSON.stringify(out);
}

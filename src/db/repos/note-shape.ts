// The one definition of a Note as the API returns it. Each field says how it is read
// from a row in TypeScript (the single read, events, MCP) and, for the list, how the
// database renders it as JSON (the list endpoint's hot path: building list items in SQL
// spares a JS object per row, a parse and re-serialization of stored JSON and, on
// PostgreSQL, the driver's conversion of every column, which together cost more than the
// query). Key order is this table's order on every path, and the text is what
// JSON.stringify would write.
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

/** What differs between the dialects in a list item's SQL (over table `notes`). */
interface ListDialect {
  /** notes.<column> in milliseconds as ISO 8601 with milliseconds, as Date#toISOString writes it. */
  iso(column: string): string;
  /** A stored JSON value (or JSON literal) as JSON, not as a string. */
  json(expr: string): string;
  /** The note's folders as a JSON array of {id, name, color}, by name. */
  tags: string;
}

interface Field<K extends keyof NoteDto> {
  key: K;
  read: (row: NoteRow, parts: NoteParts) => NoteDto[K];
  /** The list item's SQL expression, or null where lists leave the field out. */
  list: ((d: ListDialect) => string) | null;
}

const SQLITE: ListDialect = {
  iso: (column) =>
    `strftime('%Y-%m-%dT%H:%M:%S', notes.${column} / 1000, 'unixepoch') || printf('.%03dZ', notes.${column} % 1000)`,
  json: (expr) => `json(${expr})`,
  tags: `json((SELECT json_group_array(json_object('id', f.id, 'name', f.name, 'color', f.color) ORDER BY f.name)
           FROM note_folders AS nf JOIN folders AS f ON f.id = nf.folder_id
           WHERE nf.note_id = notes.id))`,
};

// PostgreSQL keeps a json column's text as written (by JSON.stringify), and row_to_json
// writes compact JSON; json_agg would put a line break between elements, hence the
// array is joined by hand.
const POSTGRES: ListDialect = {
  iso: (column) =>
    `to_char(to_timestamp(notes.${column} / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || '.' || lpad((notes.${column} % 1000)::text, 3, '0') || 'Z'`,
  json: (expr) => `${expr}::json`,
  tags: `(SELECT ('[' || coalesce(string_agg(row_to_json(t)::text, ',' ORDER BY t.name), '') || ']')::json
           FROM (SELECT f.id AS "id", f.name AS "name", f.color AS "color"
                 FROM note_folders nf JOIN folders f ON f.id = nf.folder_id WHERE nf.note_id = notes.id) t)`,
};

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

/** A field whose list expression is `list` (the same in every dialect, or per dialect). */
const field = <K extends keyof NoteDto>(
  key: K,
  read: Field<K>["read"],
  list: string | ((d: ListDialect) => string) | null,
): Field<K> => ({ key, read, list: typeof list === "string" ? () => list : list });

// Plain SQL with qualified names: the tags subquery must not take notes.id for folders.id.
const FIELDS = [
  field("id", (r) => r.id, "notes.id"),
  field("title", (r) => r.title, "notes.title"),
  field("kind", (r) => r.kind, "notes.kind"),
  field("status", (r) => r.status as NoteDto["status"], "notes.status"),
  field(
    "createdAt",
    (r) => iso(r.createdAt),
    (d) => d.iso("created_at"),
  ),
  field(
    "updatedAt",
    (r) => iso(r.updatedAt),
    (d) => d.iso("updated_at"),
  ),
  field("visibility", (r) => r.visibility, "notes.visibility"),
  field(
    "tags",
    (_, p) => p.tags,
    (d) => d.tags,
  ),
  field(
    "participants",
    (r) => r.participants,
    (d) => d.json("notes.participants"),
  ),
  field("totalDurationSec", (r) => r.totalDurationSec, "notes.total_duration_sec"),
  field("userWrittenNote", (r) => r.userWrittenNote, "notes.user_written_note"),
  // Lists carry the full parts empty (interface: "Empty in list responses").
  field("enhancedNote", (r) => r.enhancedNote, "''"),
  field("summary", (r) => r.summary, "''"),
  field(
    "transcripts",
    (_, p) => p.transcripts,
    (d) => d.json("'[]'"),
  ),
  field(
    "calendarEvent",
    (r) => (r.calendarEvent as NoteDto["calendarEvent"]) ?? null,
    (d) => d.json("notes.calendar_event"),
  ),
  field("inputLanguage", (r) => r.inputLanguage, "notes.input_language"),
  field("translationLanguage", (r) => r.translationLanguage, "notes.translation_language"),
  field("meetingApp", (r) => r.meetingApp, "notes.meeting_app"),
  // Extensions of the single read only.
  field("processingError", (r) => r.processingError, null),
  field("processingInfo", (r) => r.processingInfo ?? null, null),
  field("shareUrl", (_, p) => p.shareUrl, null),
  field("processingWarnings", (r) => r.processingWarnings ?? null, null),
  field("textEditedAt", (r) => (r.textEditedAt ? new Date(r.textEditedAt).toISOString() : null), null),
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

const listed = (projection: "item" | "brief") =>
  FIELDS.filter((f) => f.list !== null && (projection === "item" || (BRIEF_KEYS as readonly string[]).includes(f.key)));

/** SQLite: a row of `notes` as its list item's (or brief's) JSON text. */
const sqliteJson = (projection: "item" | "brief") =>
  `json_object(${listed(projection)
    .map((f) => `'${f.key}', ${f.list!(SQLITE)}`)
    .join(",\n  ")})`;

/** SQLite rendering one row of `notes` as its list item's JSON text. */
export const LIST_ITEM_JSON_SQL = sqliteJson("item");

/**
 * SQLite rendering a row as its brief: the web list parses these, and the full items
 * carry the user-written note, which may be long.
 */
export const BRIEF_JSON_SQL = sqliteJson("brief");

/** PostgreSQL: the same, as row_to_json of the fields named by their keys (compact, in order). */
const postgresJson = (projection: "item" | "brief") =>
  `(SELECT row_to_json(i)::text FROM (SELECT ${listed(projection)
    .map((f) => `${f.list!(POSTGRES)} AS "${f.key}"`)
    .join(",\n  ")}) i)`;

export const PG_LIST_JSON_SQL = { item: postgresJson("item"), brief: postgresJson("brief") };

/** PostgreSQL: a row of `notes`' folders as a JSON array of {id, name, color}, by name (the single read's too). */
export const PG_NOTE_TAGS_SQL = POSTGRES.tags;

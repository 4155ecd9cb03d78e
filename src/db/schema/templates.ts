// Meeting templates, a workspace's AI settings, and the names given to a note's speakers.
import { createdAtColumn, idColumn, updatedAtColumn } from "./columns.js";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { workspaceColumn } from "./accounts.js";
import { notes } from "./notes.js";

export interface TemplateSectionValue {
  title: string;
  instructions: string;
}

/** A workspace's own templates; the built-in ones live in code (src/ai/templates/builtin.ts). */
export const templates = sqliteTable(
  "templates",
  {
    id: idColumn(),
    workspaceId: workspaceColumn(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** Ordered; read and written whole. */
    sections: text("sections", { mode: "json" }).$type<TemplateSectionValue[]>().notNull(),
    context: text("context").notNull().default(""),
    /** The language the enhanced note is written in (a code such as "de"), or null for the meeting's. */
    language: text("language"),
    createdBy: text("created_by").notNull(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [index("templates_workspace_idx").on(t.workspaceId, t.createdAt)],
);

/**
 * A workspace's AI configuration: the settings as one JSON value (validated by
 * AiSettingsValue on the way in and out), and the API keys sealed apart, so that
 * nothing that reads the settings can return a key by mistake.
 */
export const aiSettings = sqliteTable("ai_settings", {
  workspaceId: text("workspace_id").primaryKey(),
  settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  sttApiKeyEnc: text("stt_api_key_enc"),
  llmApiKeyEnc: text("llm_api_key_enc"),
  updatedAt: updatedAtColumn(),
});

/**
 * The names given to a note's speaker labels. Segments keep the engine's labels; the
 * names apply wherever a transcript is read, so they survive a new transcript too.
 */
export const noteSpeakers = sqliteTable(
  "note_speakers",
  {
    noteId: text("note_id")
      .notNull()
      .references(() => notes.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    name: text("name").notNull(),
    email: text("email"),
    /** Offered by a voice print, not yet confirmed by anyone. */
    suggested: integer("suggested", { mode: "boolean" }).notNull().default(false),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.noteId, t.label] })],
);

// Voices: what the speaker embedding model heard of each voice in a note, and the voice
// prints a workspace learns when someone names a voice, so that the same voice is
// offered the same name in later meetings. Both stay on the server: no API returns an
// embedding. A print that belongs to a member (by email) goes with their membership.
import { index, primaryKey, sqliteTable, text, integer } from "drizzle-orm/sqlite-core";
import { createdAtColumn, idColumn, updatedAtColumn } from "./columns.js";
import { workspaceColumn } from "./accounts.js";
import { notes } from "./notes.js";

/** Each voice a note's diarization found: its label in the transcript and its embedding (unit length). */
export const noteVoices = sqliteTable(
  "note_voices",
  {
    noteId: text("note_id")
      .notNull()
      .references(() => notes.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    embedding: text("embedding", { mode: "json" }).$type<number[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.noteId, t.label] })],
);

/** A named voice: the mean of the embeddings of the voices given that name (unit length). */
export const voicePrints = sqliteTable(
  "voice_prints",
  {
    id: idColumn(),
    workspaceId: workspaceColumn(),
    name: text("name").notNull(),
    /** A participant's or member's address, when the voice was named by it. */
    email: text("email"),
    embedding: text("embedding", { mode: "json" }).$type<number[]>().notNull(),
    /** How many named voices it was learned from. */
    samples: integer("samples").notNull(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [index("voice_prints_workspace_idx").on(t.workspaceId)],
);

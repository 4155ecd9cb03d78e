// Questions asked of one's meetings, kept as threads: each person's own, a follow-up
// asked in the thread of the questions before it.
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAtColumn, idColumn, updatedAtColumn } from "./columns.js";
import { userColumn, workspaceColumn } from "./accounts.js";

export interface AskCitationValue {
  noteId: string;
  title: string;
  startSec: number | null;
  speaker: string | null;
  quote: string;
}

export interface AskTurnValue {
  question: string;
  answer: string;
  found: boolean;
  citations: AskCitationValue[];
  /** What wrote the answer: a model's name, or "extractive". */
  engine: string;
  /** Only part of what was found was read (the rest did not fit, even summarised). */
  partial: boolean;
  /** Ended early: the model failed or stopped mid-answer; what streamed is kept. */
  error: string | null;
  at: number;
}

/** Where a thread's questions look: one note, or the notes list's filters. */
export interface AskScopeValue {
  noteId?: string;
  folderIds?: string[];
  fromDate?: number;
  toDate?: number;
  participantEmail?: string;
}

export const askThreads = sqliteTable(
  "ask_threads",
  {
    id: idColumn(),
    workspaceId: workspaceColumn(),
    userId: userColumn(),
    /** The first question, as the thread's name. */
    title: text("title").notNull(),
    scope: text("scope", { mode: "json" }).$type<AskScopeValue>().notNull(),
    /** Read and written whole: a thread is a few questions. */
    turns: text("turns", { mode: "json" }).$type<AskTurnValue[]>().notNull(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [index("ask_threads_user_idx").on(t.workspaceId, t.userId, t.updatedAt)],
);

// Uploads, the durable job queue, the webhook outbox and the search passages.
import { idColumn, createdAtColumn, updatedAtColumn } from "./columns.js";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { workspaceColumn } from "./accounts.js";
import { webhooks } from "./integrations.js";
import { notes } from "./notes.js";

/** A presigned upload: created by generate-upload-url, filled by PUT, consumed by from-audio. */
export const audioUploads = sqliteTable(
  "audio_uploads",
  {
    id: idColumn(),
    workspaceId: workspaceColumn(),
    userId: text("user_id").notNull(),
    extension: text("extension").notNull(),
    contentType: text("content_type").notNull(),
    maxBytes: integer("max_bytes").notNull(),
    declaredDurationSec: integer("declared_duration_sec").notNull(),
    /** pending → receiving → uploaded → used; receiving returns to pending if the upload fails. */
    status: text("status", { enum: ["pending", "receiving", "uploaded", "used"] }).notNull(),
    bytes: integer("bytes"),
    noteId: text("note_id"),
    /** When the presigned URL stops working. */
    expiresAt: integer("expires_at").notNull(),
    createdAt: createdAtColumn(),
    uploadedAt: integer("uploaded_at"),
  },
  (t) => [index("audio_uploads_workspace_idx").on(t.workspaceId, t.createdAt)],
);

/**
 * A live recording: a note's audio arriving as numbered pieces of one stream while the
 * meeting goes on. Its own life cycle (recording → stopped), apart from uploads': a note
 * names its recording by recordingId (an upload by uploadId), and the joined file is
 * stored under the same kind of key as an upload's (`<workspace>/<id>.<format>`).
 */
export const recordings = sqliteTable(
  "recordings",
  {
    id: idColumn(),
    workspaceId: workspaceColumn(),
    userId: text("user_id").notNull(),
    noteId: text("note_id"),
    format: text("format", { enum: ["webm", "ogg", "wav", "mp4"] }).notNull(),
    contentType: text("content_type").notNull(),
    /** The joined recording's largest size, as an upload's. */
    maxBytes: integer("max_bytes").notNull(),
    status: text("status", { enum: ["recording", "stopped"] }).notNull(),
    /** While recording: when the server stops it unless another piece arrives first. */
    quietUntil: integer("quiet_until").notNull(),
    /** The joined recording's size, once its pieces are joined. */
    bytes: integer("bytes"),
    createdAt: createdAtColumn(),
    stoppedAt: integer("stopped_at"),
  },
  (t) => [index("recordings_workspace_status_idx").on(t.workspaceId, t.status)],
);

/**
 * The pieces of a live recording: consecutive parts of one audio stream, numbered from
 * 0, each stored in the audio store before it is acknowledged. Joined in order when
 * the recording stops; a number sent twice is stored once.
 */
export const recordingPieces = sqliteTable(
  "recording_pieces",
  {
    recordingId: text("recording_id")
      .notNull()
      .references(() => recordings.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    bytes: integer("bytes").notNull(),
    sha256: text("sha256").notNull(),
    /** As the recorder measured it; null when it did not say. */
    durationMs: integer("duration_ms"),
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.recordingId, t.seq] })],
);

/** The durable job queue: survives restarts; a crashed worker's job is retaken after its lease. */
export const jobs = sqliteTable(
  "jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind").notNull(),
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: ["queued", "running", "succeeded", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    availableAt: integer("available_at").notNull(),
    leaseUntil: integer("lease_until"),
    lastError: text("last_error"),
    /** At most one unfinished job per key: enqueueing again while one waits is a no-op. */
    idempotencyKey: text("idempotency_key"),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [
    // Unfinished jobs by status (the queue's depth, a restart's requeue); and a claim's
    // two steps, by kind: the oldest waiting job, a lease that ran out.
    index("jobs_ready_idx").on(t.status, t.availableAt),
    index("jobs_claim_idx").on(t.kind, t.status, t.availableAt, t.id),
    index("jobs_idempotency_idx").on(t.idempotencyKey, t.status),
  ],
);

/** The outbox: one row per event, written in the transaction that caused it. */
export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    id: idColumn(),
    workspaceId: workspaceColumn(),
    type: text("type").notNull(),
    /** The exact body sent, so every attempt sends the same bytes. */
    body: text("body").notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [index("webhook_events_workspace_idx").on(t.workspaceId, t.createdAt)],
);

/** One event to one registration: the delivery log. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: idColumn(),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    nextAttemptAt: integer("next_attempt_at"),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
    deliveredAt: integer("delivered_at"),
  },
  (t) => [
    index("webhook_deliveries_workspace_idx").on(t.workspaceId, t.createdAt),
    index("webhook_deliveries_event_idx").on(t.eventId),
  ],
);

/**
 * Passages of notes and articles for meaning-based search. The vector is kept whole in
 * `embedding` (a float32 blob, added by migration 0015) for exact ranking, and as bits
 * in passage_codes_<dims>, in the cell of its workspace's vector index (passage_members).
 */
export const passages = sqliteTable(
  "passages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: workspaceColumn(),
    source: text("source", { enum: ["note", "article"] }).notNull(),
    sourceId: text("source_id").notNull(),
    position: integer("position").notNull(),
    text: text("text").notNull(),
    /** Where in the recording a transcript passage starts. */
    timestampSec: integer("timestamp_sec"),
    model: text("model").notNull(),
    dims: integer("dims").notNull(),
  },
  (t) => [index("passages_source_idx").on(t.source, t.sourceId), index("passages_workspace_idx").on(t.workspaceId)],
);

/**
 * What a language model noted of a part of a meeting (or of a combination of such
 * notes), kept while the meeting is recorded so that its note, once it stops, reads
 * only what is new (src/ai/summarization/parts.ts). Keyed by a digest of everything
 * the model was given: a part whose words, speakers, title or instructions changed is
 * a part not read before. Dropped once the note is written.
 */
export const summaryParts = sqliteTable(
  "summary_parts",
  {
    noteId: text("note_id")
      .notNull()
      .references(() => notes.id, { onDelete: "cascade" }),
    digest: text("digest").notNull(),
    content: text("content").notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [primaryKey({ columns: [t.noteId, t.digest] })],
);

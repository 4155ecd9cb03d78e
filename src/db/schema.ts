// The SQLite schema. Times are integer milliseconds since the epoch (rendered as
// ISO 8601 at the edge); JSON columns hold small nested values that are only ever
// read whole. Indexes are named for the list query each one serves.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export interface ParticipantValue {
  name: string;
  email: string;
  profileImageUrl: string;
  accountName: string;
  accountDomain: string;
  accountImageUrl: string;
}

export const workspaces = sqliteTable("workspaces", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  plan: text("plan", { enum: ["free", "pro", "enterprise"] }).notNull(),
  settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  allowedEmailDomains: text("allowed_email_domains", { mode: "json" }).$type<string[]>().notNull(),
  iconUrl: text("icon_url"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    profileUrl: text("profile_url").notNull().default(""),
    passwordHash: text("password_hash"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("users_email_uq").on(t.email)],
);

/** A user's membership of a workspace: what the API calls a member. */
export const members = sqliteTable(
  "members",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["admin", "member"] }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("members_workspace_user_uq").on(t.workspaceId, t.userId),
    index("members_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id),
  ],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The first characters of the key, kept so people can tell keys apart. */
    displayPrefix: text("display_prefix").notNull(),
    /** SHA-256 of the whole key (keys are 256-bit random, so no slow hash is needed). */
    keyHash: text("key_hash").notNull(),
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_uq").on(t.keyHash), index("api_keys_workspace_idx").on(t.workspaceId)],
);

export const folders = sqliteTable(
  "folders",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    icon: text("icon"),
    color: text("color").notNull(),
    isPrivate: integer("is_private", { mode: "boolean" }).notNull(),
    parentFolderId: text("parent_folder_id"),
    ownerUserId: text("owner_user_id").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("folders_workspace_idx").on(t.workspaceId, t.createdAt)],
);

export const folderMembers = sqliteTable(
  "folder_members",
  {
    folderId: text("folder_id").notNull().references(() => folders.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.folderId, t.userId] }), index("folder_members_user_idx").on(t.userId)],
);

export const tags = sqliteTable(
  "tags",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    color: text("color").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("tags_workspace_name_uq").on(t.workspaceId, t.name)],
);

export const userGroups = sqliteTable(
  "user_groups",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("user_groups_workspace_name_uq").on(t.workspaceId, t.name)],
);

export const groupMembers = sqliteTable(
  "group_members",
  {
    groupId: text("group_id").notNull().references(() => userGroups.id, { onDelete: "cascade" }),
    memberId: text("member_id").notNull().references(() => members.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.memberId] }), index("group_members_member_idx").on(t.memberId)],
);

export const invites = sqliteTable(
  "invites",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    email: text("email"),
    code: text("code").notNull(),
    role: text("role", { enum: ["admin", "member"] }).notNull(),
    isUrlInvite: integer("is_url_invite", { mode: "boolean" }).notNull(),
    invitedByUserId: text("invited_by_user_id"),
    expiresAt: integer("expires_at").notNull(),
    createdAt: integer("created_at").notNull(),
    acceptedAt: integer("accepted_at"),
  },
  (t) => [
    uniqueIndex("invites_code_uq").on(t.code),
    index("invites_workspace_pending_idx").on(t.workspaceId, t.acceptedAt, t.createdAt),
  ],
);

export const inviteGroups = sqliteTable(
  "invite_groups",
  {
    inviteId: text("invite_id").notNull().references(() => invites.id, { onDelete: "cascade" }),
    groupId: text("group_id").notNull().references(() => userGroups.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.inviteId, t.groupId] })],
);

export const inviteFolders = sqliteTable(
  "invite_folders",
  {
    inviteId: text("invite_id").notNull().references(() => invites.id, { onDelete: "cascade" }),
    folderId: text("folder_id").notNull().references(() => folders.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.inviteId, t.folderId] })],
);

export const notes = sqliteTable(
  "notes",
  {
    /** Stable integer key: the rowid of the title search index (survives VACUUM, unlike an implicit rowid). */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    createdBy: text("created_by").notNull(),
    title: text("title").notNull(),
    kind: text("kind", { enum: ["online", "in-person", "podcast"] }).notNull(),
    status: text("status").notNull(),
    visibility: text("visibility", { enum: ["only-me", "workspace", "public"] }).notNull(),
    userWrittenNote: text("user_written_note").notNull().default(""),
    enhancedNote: text("enhanced_note").notNull().default(""),
    summary: text("summary").notNull().default(""),
    totalDurationSec: integer("total_duration_sec").notNull().default(0),
    /** Read whole with the note, so kept as JSON beside it; emails are indexed in note_participant_emails. */
    participants: text("participants", { mode: "json" }).$type<ParticipantValue[]>().notNull(),
    calendarEvent: text("calendar_event", { mode: "json" }).$type<Record<string, unknown> | null>(),
    inputLanguage: text("input_language"),
    translationLanguage: text("translation_language"),
    meetingApp: text("meeting_app"),
    processingError: text("processing_error"),
    /** The recording this note was made from, if any (kept for reprocessing). */
    audioUploadId: text("audio_upload_id"),
    /** Which engines made the transcript and summary, e.g. {"transcription":"openai:whisper-1"}. */
    processingInfo: text("processing_info", { mode: "json" }).$type<Record<string, string> | null>(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    // The three sort orders of the list. Visibility and creator trail the key so that
    // the only-me check of a filtered list reads the index alone, not every row.
    index("notes_ws_created_idx").on(t.workspaceId, t.createdAt, t.id, t.visibility, t.createdBy),
    index("notes_ws_updated_idx").on(t.workspaceId, t.updatedAt, t.id, t.visibility, t.createdBy),
    index("notes_ws_title_idx").on(t.workspaceId, sql`${t.title} COLLATE NOCASE`, t.id, t.visibility, t.createdBy),
    index("notes_ws_status_created_idx").on(t.workspaceId, t.status, t.createdAt),
    index("notes_ws_creator_created_idx").on(t.workspaceId, t.createdBy, t.createdAt),
  ],
);

/** The participants' emails, lower-cased: the index behind the participantEmail filter. */
export const noteParticipantEmails = sqliteTable(
  "note_participant_emails",
  {
    noteId: text("note_id").notNull().references(() => notes.id, { onDelete: "cascade" }),
    emailNorm: text("email_norm").notNull(),
  },
  (t) => [primaryKey({ columns: [t.emailNorm, t.noteId] }), index("note_participant_emails_note_idx").on(t.noteId)],
);

export const transcriptSegments = sqliteTable(
  "transcript_segments",
  {
    noteId: text("note_id").notNull().references(() => notes.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    speaker: text("speaker").notNull(),
    text: text("text").notNull(),
    startSec: integer("start_sec").notNull(),
    endSec: integer("end_sec").notNull(),
  },
  (t) => [primaryKey({ columns: [t.noteId, t.position] })],
);

export const noteFolders = sqliteTable(
  "note_folders",
  {
    noteId: text("note_id").notNull().references(() => notes.id, { onDelete: "cascade" }),
    folderId: text("folder_id").notNull().references(() => folders.id, { onDelete: "cascade" }),
    // The note's createdAt (which never changes), copied here so that a folder's
    // notes, newest first, are one walk of note_folders_timeline_idx.
    noteCreatedAt: integer("note_created_at").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.noteId, t.folderId] }),
    index("note_folders_folder_idx").on(t.folderId, t.noteId),
    index("note_folders_timeline_idx").on(t.folderId, t.noteCreatedAt, t.noteId),
  ],
);

export const webhooks = sqliteTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    hookUrl: text("hook_url").notNull(),
    /** The signing secret, encrypted with the data dir's key (it must be recoverable to sign). */
    secretEnc: text("secret_enc").notNull(),
    createdByUserId: text("created_by_user_id"),
    createdAt: integer("created_at").notNull(),
    disabledAt: integer("disabled_at"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  },
  (t) => [uniqueIndex("webhooks_workspace_url_uq").on(t.workspaceId, t.hookUrl)],
);

export const knowledgeArticles = sqliteTable(
  "knowledge_articles",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    content: text("content").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("knowledge_ws_created_idx").on(t.workspaceId, t.createdAt, t.id)],
);

/** A presigned upload: created by generate-upload-url, filled by PUT, consumed by from-audio. */
export const audioUploads = sqliteTable(
  "audio_uploads",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    extension: text("extension").notNull(),
    contentType: text("content_type").notNull(),
    maxBytes: integer("max_bytes").notNull(),
    declaredDurationSec: integer("declared_duration_sec").notNull(),
    /** pending → receiving → uploaded → used; receiving returns to pending if the upload fails. */
    status: text("status", { enum: ["pending", "receiving", "uploaded", "used"] }).notNull(),
    bytes: integer("bytes"),
    noteId: text("note_id"),
    expiresAt: integer("expires_at").notNull(),
    createdAt: integer("created_at").notNull(),
    uploadedAt: integer("uploaded_at"),
  },
  (t) => [index("audio_uploads_workspace_idx").on(t.workspaceId, t.createdAt)],
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
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("jobs_ready_idx").on(t.status, t.availableAt),
    index("jobs_idempotency_idx").on(t.idempotencyKey, t.status),
  ],
);

/** The outbox: one row per event, written in the transaction that caused it. */
export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    /** The exact body sent, so every attempt sends the same bytes. */
    body: text("body").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("webhook_events_workspace_idx").on(t.workspaceId, t.createdAt)],
);

/** One event to one registration: the delivery log. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id").notNull().references(() => webhookEvents.id, { onDelete: "cascade" }),
    webhookId: text("webhook_id").notNull().references(() => webhooks.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    nextAttemptAt: integer("next_attempt_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    deliveredAt: integer("delivered_at"),
  },
  (t) => [index("webhook_deliveries_workspace_idx").on(t.workspaceId, t.createdAt), index("webhook_deliveries_event_idx").on(t.eventId)],
);

/**
 * Passages of notes and articles for meaning-based search. Their vectors live in a
 * sqlite-vec table per dimension (passage_vectors_<dims>), keyed by this id.
 */
export const passages = sqliteTable(
  "passages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
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

/** OAuth clients registered dynamically (RFC 7591) by MCP clients. */
export const oauthClients = sqliteTable("oauth_clients", {
  id: text("id").primaryKey(),
  /** SHA-256 of the secret; null for public clients (token_endpoint_auth_method none). */
  secretHash: text("secret_hash"),
  name: text("name").notNull(),
  redirectUris: text("redirect_uris", { mode: "json" }).$type<string[]>().notNull(),
  grantTypes: text("grant_types", { mode: "json" }).$type<string[]>().notNull(),
  authMethod: text("auth_method").notNull(),
  scope: text("scope").notNull(),
  createdAt: integer("created_at").notNull(),
});

/** An authorization request, validated and kept server-side while the user signs in and consents. */
export const oauthRequests = sqliteTable("oauth_requests", {
  id: text("id").primaryKey(),
  clientId: text("client_id").notNull().references(() => oauthClients.id, { onDelete: "cascade" }),
  redirectUri: text("redirect_uri").notNull(),
  state: text("state"),
  codeChallenge: text("code_challenge").notNull(),
  scope: text("scope").notNull(),
  resource: text("resource").notNull(),
  csrf: text("csrf").notNull(),
  userId: text("user_id"),
  workspaceId: text("workspace_id"),
  expiresAt: integer("expires_at").notNull(),
});

export const oauthCodes = sqliteTable("oauth_codes", {
  codeHash: text("code_hash").primaryKey(),
  clientId: text("client_id").notNull(),
  userId: text("user_id").notNull(),
  workspaceId: text("workspace_id").notNull(),
  redirectUri: text("redirect_uri").notNull(),
  codeChallenge: text("code_challenge").notNull(),
  scope: text("scope").notNull(),
  resource: text("resource").notNull(),
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
});

/** Refresh tokens, rotated at every use; a family is every token descended from one code. */
export const oauthRefreshTokens = sqliteTable(
  "oauth_refresh_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    familyId: text("family_id").notNull(),
    clientId: text("client_id").notNull(),
    userId: text("user_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    scope: text("scope").notNull(),
    resource: text("resource").notNull(),
    expiresAt: integer("expires_at").notNull(),
    rotatedAt: integer("rotated_at"),
    revokedAt: integer("revoked_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("oauth_refresh_family_idx").on(t.familyId)],
);

/** Browser sign-in sessions of the OAuth pages (cookie holds the id; stored hashed). */
export const webSessions = sqliteTable("web_sessions", {
  idHash: text("id_hash").primaryKey(),
  userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  expiresAt: integer("expires_at").notNull(),
});

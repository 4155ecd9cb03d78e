// Browser sessions (the web app and the OAuth pages share them) and one-time account
// links (first-admin setup, password reset). Secrets are stored only as hashes.
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAtColumn } from "./columns.js";
import { userColumn, workspaces } from "./accounts.js";

/** The cookie holds the session id; only its SHA-256 is kept. */
export const webSessions = sqliteTable(
  "web_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: userColumn(),
    expiresAt: integer("expires_at").notNull(),
    /** The workspace the web app shows; null until one is picked. */
    workspaceId: text("workspace_id").references(() => workspaces.id, { onDelete: "set null" }),
    /** The token every form of this session carries (CSRF). */
    csrf: text("csrf").notNull().default(""),
    userAgent: text("user_agent").notNull().default(""),
    createdAt: integer("created_at").notNull().default(0),
    lastSeenAt: integer("last_seen_at").notNull().default(0),
  },
  (t) => [index("web_sessions_user_idx").on(t.userId)],
);

/** A one-time link that lets a user set a password: the first admin's setup, or an admin's reset. */
export const accountTokens = sqliteTable(
  "account_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: userColumn(),
    purpose: text("purpose", { enum: ["setup", "reset"] }).notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: createdAtColumn(),
  },
  (t) => [index("account_tokens_user_idx").on(t.userId)],
);

/**
 * Short-lived state of a sign-in in progress (a CLI's browser grant, an upstream
 * provider's PKCE verifier), kept in the database so that any replica can finish
 * what another started. Keyed by a hash of the one-time code or state; taken once.
 */
export const pendingStates = sqliteTable(
  "pending_states",
  {
    kind: text("kind", { enum: ["cli-grant", "upstream-oidc", "revoked-grant", "flash"] }).notNull(),
    keyHash: text("key_hash").notNull(),
    value: text("value", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.keyHash] }), index("pending_states_expiry_idx").on(t.expiresAt)],
);

/** MCP sessions over streamable HTTP: any replica continues a session another opened. */
export const mcpSessions = sqliteTable(
  "mcp_sessions",
  {
    /** SHA-256 of the Mcp-Session-Id the client holds. */
    idHash: text("id_hash").primaryKey(),
    /** The credential that opened it: only the same one may use it. */
    keyId: text("key_id").notNull(),
    createdAt: createdAtColumn(),
    lastSeenAt: integer("last_seen_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("mcp_sessions_expiry_idx").on(t.expiresAt)],
);

/**
 * Counts per slot of a sliding window (API requests per key, failed sign-ins), kept in
 * the database where replicas must share them (PostgreSQL); window_start is the slot's.
 */
export const rateCounters = sqliteTable(
  "rate_counters",
  {
    key: text("key").notNull(),
    windowStart: integer("window_start").notNull(),
    count: integer("count").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index("rate_counters_expiry_idx").on(t.expiresAt)],
);

/**
 * An Idempotency-Key sent with a note-creating POST: a repeat of the request within the
 * key's day answers the note the first one made, on any replica. Claimed (noteId null)
 * before the note is made, so that two requests racing with one key make one note.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** Whose key: one person's keys never answer another's requests. */
    userId: text("user_id").notNull(),
    /** SHA-256 of the key as sent. */
    keyHash: text("key_hash").notNull(),
    /** SHA-256 of the operation and its body: a repeat must send the same. */
    requestHash: text("request_hash").notNull(),
    /** The note made; null while the first request is making it. */
    noteId: text("note_id"),
    createdAt: createdAtColumn(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId, t.keyHash] }),
    index("idempotency_keys_expiry_idx").on(t.expiresAt),
  ],
);

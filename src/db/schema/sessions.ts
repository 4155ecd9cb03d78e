// Browser sessions (the web app and the OAuth pages share them) and one-time account
// links (first-admin setup, password reset). Secrets are stored only as hashes.
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
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

// Workspaces, users, their memberships and API keys.
import { idColumn, createdAtColumn, updatedAtColumn } from "./columns.js";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const workspaces = sqliteTable("workspaces", {
  id: idColumn(),
  name: text("name").notNull(),
  plan: text("plan", { enum: ["free", "pro", "enterprise"] }).notNull(),
  settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  allowedEmailDomains: text("allowed_email_domains", { mode: "json" }).$type<string[]>().notNull(),
  iconUrl: text("icon_url"),
  createdAt: createdAtColumn(),
  updatedAt: updatedAtColumn(),
});

/** A workspace's own rows go when it goes. */
export const workspaceColumn = () =>
  text("workspace_id")
    .notNull()
    .references(() => workspaces.id, { onDelete: "cascade" });

export const users = sqliteTable(
  "users",
  {
    id: idColumn(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    profileUrl: text("profile_url").notNull().default(""),
    passwordHash: text("password_hash"),
    // The IANA zone the web app writes times in: the browser's at sign-in, or the one
    // chosen in Settings → Account. Null until either: pages then write UTC.
    timeZone: text("time_zone"),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex("users_email_uq").on(t.email)],
);

/** A user's own rows go when the user goes. */
export const userColumn = () =>
  text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });

/** A user's membership of a workspace: what the API calls a member. */
export const members = sqliteTable(
  "members",
  {
    id: idColumn(),
    workspaceId: workspaceColumn(),
    userId: userColumn(),
    role: text("role", { enum: ["admin", "member"] }).notNull(),
    /** "Email me when my note is ready": off unless the person turns it on. */
    notifyNoteReady: integer("notify_note_ready", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAtColumn(),
  },
  (t) => [
    uniqueIndex("members_workspace_user_uq").on(t.workspaceId, t.userId),
    // A user's workspaces (sign-in pages) without a scan of every membership.
    index("members_user_idx").on(t.userId),
    index("members_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id),
  ],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: idColumn(),
    workspaceId: workspaceColumn(),
    userId: userColumn(),
    name: text("name").notNull(),
    /** The first characters of the key, kept so people can tell keys apart. */
    displayPrefix: text("display_prefix").notNull(),
    /** SHA-256 of the whole key (keys are 256-bit random, so no slow hash is needed). */
    keyHash: text("key_hash").notNull(),
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: createdAtColumn(),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_uq").on(t.keyHash), index("api_keys_workspace_idx").on(t.workspaceId)],
);

// Webhook registrations, knowledge-base articles and a workspace's own mail server.
import { idColumn, createdAtColumn, updatedAtColumn } from "./columns.js";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { workspaceColumn } from "./accounts.js";

export const webhooks = sqliteTable(
  "webhooks",
  {
    id: idColumn(),
    workspaceId: workspaceColumn(),
    hookUrl: text("hook_url").notNull(),
    /** The signing secret, encrypted with the data dir's key (it must be recoverable to sign). */
    secretEnc: text("secret_enc").notNull(),
    createdByUserId: text("created_by_user_id"),
    createdAt: createdAtColumn(),
    disabledAt: integer("disabled_at"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  },
  (t) => [uniqueIndex("webhooks_workspace_url_uq").on(t.workspaceId, t.hookUrl)],
);

export const knowledgeArticles = sqliteTable(
  "knowledge_articles",
  {
    id: idColumn(),
    workspaceId: workspaceColumn(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [index("knowledge_ws_created_idx").on(t.workspaceId, t.createdAt, t.id)],
);

/**
 * A workspace's own SMTP server, set by its admins: used for its mail in place of the
 * server's (NOTULA_SMTP_URL). The URL carries the password, so it is sealed whole.
 */
export const mailSettings = sqliteTable("mail_settings", {
  workspaceId: workspaceColumn().primaryKey(),
  smtpUrlEnc: text("smtp_url_enc").notNull(),
  /** The sender, as `Name <address>`; null for the server's. */
  fromAddress: text("from_address"),
  updatedAt: updatedAtColumn(),
});

// Webhook registrations and knowledge-base articles.
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

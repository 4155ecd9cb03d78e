// Webhook registrations and knowledge-base articles.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { workspaces } from "./accounts.js";

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

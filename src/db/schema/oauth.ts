// The OAuth authorization server of /mcp and the browser sign-in sessions.
import { idColumn, createdAtColumn } from "./columns.js";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** OAuth clients registered dynamically (RFC 7591) by MCP clients. */
export const oauthClients = sqliteTable("oauth_clients", {
  id: idColumn(),
  /** SHA-256 of the secret; null for public clients (token_endpoint_auth_method none). */
  secretHash: text("secret_hash"),
  name: text("name").notNull(),
  redirectUris: text("redirect_uris", { mode: "json" }).$type<string[]>().notNull(),
  grantTypes: text("grant_types", { mode: "json" }).$type<string[]>().notNull(),
  authMethod: text("auth_method").notNull(),
  scope: text("scope").notNull(),
  createdAt: createdAtColumn(),
});

/** An authorization request, validated and kept server-side while the user signs in and consents. */
export const oauthRequests = sqliteTable("oauth_requests", {
  id: idColumn(),
  clientId: text("client_id")
    .notNull()
    .references(() => oauthClients.id, { onDelete: "cascade" }),
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
    createdAt: createdAtColumn(),
  },
  (t) => [index("oauth_refresh_family_idx").on(t.familyId)],
);
